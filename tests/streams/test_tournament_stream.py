"""A tournament's stream through the real ASGI server: each new entry of its log as a
``tournament_changed`` frame with the log's seq as its id, in order, after commit; resumed with
Last-Event-ID, nothing is missed. A finished tournament's stream says so after its last entry
and ends."""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import timedelta
from typing import Any, cast

from django.http import StreamingHttpResponse
from django.utils import timezone

from games.models import Tournament, TournamentEntry
from service import tournament_steps
from tests.support.players import client_for
from tests.support.streams import END, Seat, Server, Stream, ending, open_stream
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


def finish_for_want_of_players(tournament: str) -> int:
    """Its start comes with one entrant: it finishes, not having taken place. Its last seq."""
    Tournament.objects.filter(pk=tournament).update(starts_at=timezone.now() - timedelta(seconds=1))
    tournament_steps.advance(tournament)
    finished = Tournament.objects.get(pk=tournament)
    assert finished.status == "finished", finished.status
    return finished.version


def assert_over(messages: list[Any]) -> None:
    """The last message says the tournament is over (no ``id:``: Last-Event-ID stays the last
    entry's seq); a client knows not to reconnect."""
    said = messages[-1]
    assert (said.event, said.id) == ("stream_ended", None), said
    assert said.json["code"] == "tournament_finished" and said.json["detail"], said.data


def test_the_stream_of_a_tournament_that_finishes_ends_after_its_last_entry(
    server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    host, ada = make_seat("host"), make_seat("ada")
    tournament = make_tournament(server, host)
    join(server, tournament, ada)  # seq 2
    path = f"{TOURNAMENTS}{tournament}/stream/"
    live = open_stream(server, path, token=ada.token)  # new entries only
    streams.append(live)  # open (its opening ``retry`` read): its cursor is fixed

    last = finish_for_want_of_players(tournament)
    messages = [m for m in ending(live) if m.event is not None]
    assert [m.json for m in messages[:-1]] == [logged(tournament)[s] for s in range(3, last + 1)]
    assert_over(messages)

    # Opened once it is over: nothing follows the last entry, so it says so at once; from the
    # start, after the whole log.
    for query, entries in (("", 0), ("?after=0", last)):
        again = open_stream(server, f"{path}{query}", token=ada.token)
        streams.append(again)
        said = [m for m in ending(again) if m.event is not None]
        assert [m.id for m in said[:-1]] == [str(seq) for seq in range(1, entries + 1)]
        assert_over(said)


def test_an_upcoming_tournaments_stream_goes_on(
    server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    host, ada = make_seat("host"), make_seat("ada")
    tournament = make_tournament(server, host)
    live = open_stream(server, f"{TOURNAMENTS}{tournament}/stream/?after=1", token=ada.token)
    streams.append(live)
    join(server, tournament, ada)
    assert live.next_event().id == "2"  # nothing ended it after seq 1
    join(server, tournament, ada, "withdraw")
    assert live.next_event().id == "3"
    assert live.messages.empty() or live.next(0.01) is not END


def test_the_wsgi_servers_tournament_stream_says_when_it_is_over(make_seat: Any) -> None:
    host, ada = make_seat("host"), make_seat("ada")
    made = client_for(host.user).post(
        TOURNAMENTS,
        body_of(name="Backlog cup", table_size=2, rounds=1, settings=None),
        format="json",
    )
    assert made.status_code == 201, made.json()
    tournament = str(made.json()["id"])
    assert client_for(ada.user).post(f"{TOURNAMENTS}{tournament}/join/").status_code == 200

    def backlog() -> list[str]:
        url = f"{TOURNAMENTS}{tournament}/stream/?after=0"
        answer = client_for(ada.user).get(url, HTTP_ACCEPT="text/event-stream")
        assert answer.status_code == 200 and isinstance(answer, StreamingHttpResponse)
        return b"".join(cast(Iterable[bytes], answer.streaming_content)).decode().split("\n\n")

    assert not [frame for frame in backlog() if "stream_ended" in frame]
    last = finish_for_want_of_players(tournament)
    frames = backlog()
    assert frames[-2].startswith("event: stream_ended\ndata: "), frames[-3:]
    assert json.loads(frames[-2].split("data: ", 1)[1])["code"] == "tournament_finished"
    assert frames[-3].startswith(f"id: {last}\n"), frames[-3]
