"""A tournament's stream through the real ASGI server: each new entry of its log as a
``tournament_changed`` frame with the log's seq as its id, in order, after commit; resumed with
Last-Event-ID, nothing is missed."""

from __future__ import annotations

from typing import Any

from games.models import TournamentEntry
from tests.support.streams import Seat, Server, Stream, open_stream
from tests.support.tournaments import body_of

TOURNAMENTS = "/api/v1/tournaments/"


def make_tournament(server: Server, host: Seat) -> str:
    body = body_of(name="Streamed cup", table_size=2, rounds=1, settings=None)
    status, answer = server.request("POST", TOURNAMENTS, host.token, body)
    assert status == 201, answer
    return str(answer["id"])


def join(server: Server, tournament: str, seat: Seat, action: str = "join") -> None:
    status, answer = server.request("POST", f"{TOURNAMENTS}{tournament}/{action}/", seat.token)
    assert status == 200, answer


def logged(tournament: str) -> dict[int, dict[str, Any]]:
    return {
        e.seq: {"seq": e.seq, "type": e.type, "at": e.at.isoformat(), "data": e.data}
        for e in TournamentEntry.objects.filter(tournament_id=tournament)
    }


def test_the_stream_sends_new_entries_and_resumes_with_last_event_id(
    server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    host, ada, bob, cy = make_seat("host"), make_seat("ada"), make_seat("bob"), make_seat("cy")
    tournament = make_tournament(server, host)  # seq 1: tournament_created
    path = f"{TOURNAMENTS}{tournament}/stream/"
    live = open_stream(server, path, token=cy.token)  # no Last-Event-ID: new entries only
    streams.append(live)

    join(server, tournament, ada)  # seq 2
    join(server, tournament, bob)  # seq 3
    first = live.events_until(3)
    assert [(m.id, m.event) for m in first] == [
        ("2", "tournament_changed"),
        ("3", "tournament_changed"),
    ]
    log = logged(tournament)
    assert [m.json for m in first] == [log[2], log[3]]
    assert first[0].json["type"] == "player_joined" and first[0].json["data"] == {
        "player": ada.user.pk
    }

    live.close()
    join(server, tournament, ada, "withdraw")  # seq 4, while nobody watches
    join(server, tournament, cy)  # seq 5
    resumed = open_stream(server, path, token=cy.token, Last_Event_ID="3")
    streams.append(resumed)
    again = resumed.events_until(5)
    assert [m.id for m in again] == ["4", "5"]  # nothing missed, nothing twice
    assert [m.json for m in again] == [logged(tournament)[4], logged(tournament)[5]]
    assert again[0].json["type"] == "player_withdrew"

    # From the start: ?after=0 replays the whole log.
    whole = open_stream(server, f"{path}?after=0", token=cy.token)
    streams.append(whole)
    assert [m.json for m in whole.events_until(5)] == [logged(tournament)[s] for s in range(1, 6)]


def test_an_unknown_tournament_or_a_bad_id_is_refused(server: Server, make_seat: Any) -> None:
    seat = make_seat()
    missing = open_stream(
        server, f"{TOURNAMENTS}00000000-0000-0000-0000-000000000000/stream/", token=seat.token
    )
    assert (missing.status, missing.body["code"]) == (404, "not_found")
    host = make_seat("host")
    tournament = make_tournament(server, host)
    bad = open_stream(
        server, f"{TOURNAMENTS}{tournament}/stream/", token=seat.token, Last_Event_ID="x"
    )
    assert (bad.status, bad.body["code"]) == (400, "invalid")
    anonymous = open_stream(server, f"{TOURNAMENTS}{tournament}/stream/")
    assert (anonymous.status, anonymous.body["code"]) == (401, "not_authenticated")


def test_a_stream_ticket_opens_the_tournament_stream_once(
    server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    # A browser's EventSource sends no Authorization header: the web client's tournament page
    # opens this stream with ``?ticket=``, as it opens a game's.
    host, ada = make_seat("host"), make_seat("ada")
    tournament = make_tournament(server, host)
    status, issued = server.request("POST", "/api/v1/auth/stream-ticket/", ada.token)
    assert status == 200, issued
    path = f"{TOURNAMENTS}{tournament}/stream/?after=0&ticket={issued['ticket']}"

    live = open_stream(server, path)
    streams.append(live)
    assert live.status == 200
    assert [m.json for m in live.events_until(1)] == [logged(tournament)[1]]
    join(server, tournament, ada)
    assert live.next_event().json == logged(tournament)[2]

    spent = open_stream(server, path)
    assert (spent.status, spent.body["code"]) == (401, "not_authenticated")
