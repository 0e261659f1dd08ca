"""Quick match (issue 16): the oldest waiting public game of the asked settings with a free seat,
or a new one; never two half-filled games of the same settings; racing callers never overfill a
game, and every one of them is placed."""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

import pytest

from games.models import Game, Seat
from tests.support.concurrency import assert_consistent, run_threads
from tests.support.players import MakePlayer, Player
from tests.support.table import create_game, ok, refused

MATCH = "/api/v1/matchmaking/"


def _match(player: Player, **body: Any) -> dict[str, Any]:
    return ok(player.client.post(MATCH, body, format="json"))


@pytest.mark.django_db
def test_callers_of_the_same_settings_meet_in_one_game(
    players: list[Player], outsider: Player
) -> None:
    ada, bob, cy, dee = players
    first = _match(ada, players=3, rules={"stacking": True})
    assert first["status"] == "waiting" and first["you"]["seat"] == 0
    assert first["settings"]["max_players"] == 3 and first["settings"]["rules"]["stacking"]
    assert "private" not in first["settings"]
    assert _match(ada, players=3, rules={"stacking": True})["id"] == first["id"]  # idempotent

    other_rules = _match(dee, players=3, rules={"jump_in": True})
    other_size = _match(outsider, players=4, rules={"stacking": True})
    assert len({first["id"], other_rules["id"], other_size["id"]}) == 3

    second = _match(bob, players=3, rules={"stacking": True})
    assert second["id"] == first["id"] and second["you"]["seat"] == 1
    last = _match(cy, players=3, rules={"stacking": True})
    assert last["id"] == first["id"] and last["status"] == "active"  # full: it starts
    # The next caller finds no game with a free seat: a new one.
    assert _match(dee, players=3, rules={"stacking": True})["id"] != first["id"]


@pytest.mark.django_db
def test_a_public_lobby_game_of_those_settings_is_matched_and_a_private_one_is_not(
    players: list[Player],
) -> None:
    ada, bob, cy, _ = players
    private = create_game(ada, max_players=2, private=True)
    public = create_game(bob, max_players=2, target_score=300)
    matched = _match(cy, players=2, target_score=300)
    assert matched["id"] == public["id"] and matched["status"] == "active"
    assert _match(cy, players=2)["id"] != private["id"]


@pytest.mark.django_db
def test_bad_requests_are_refused(players: list[Player]) -> None:
    ada = players[0]
    for body in (
        {},
        {"players": 1},
        {"players": 11},
        {"players": "2"},
        {"players": 2, "rules": {"no_such_rule": True}},
        {"players": 2, "fill_with_bots_after": -1},
        {"players": 2, "seed": 7},
    ):
        refused(ada.client.post(MATCH, body, format="json"), 400, "invalid")
    refused(
        ada.client.post(MATCH, {"players": 2, "rules": {"reverse_bounce": True}}, format="json"),
        400,
        "invalid_rules",
    )
    assert not Game.objects.exists()


RACERS = 20
SEATS = 10
PRESEATED = 7  # 3 seats left in the first game when the race starts


@pytest.mark.django_db(transaction=True)
def test_twenty_racers_for_the_last_seats_never_overfill_and_are_all_placed(
    make_player: MakePlayer,
) -> None:
    body = {"players": SEATS, "rules": {"jump_in": True}}
    early = [make_player("early") for _ in range(PRESEATED)]
    first = [_match(player, **body)["id"] for player in early]
    assert len(set(first)) == 1
    racers = [make_player("racer") for _ in range(RACERS)]
    clients = [racer.fresh_client() for racer in racers]

    def work(i: int, barrier: threading.Barrier) -> tuple[int, dict[str, Any]]:
        barrier.wait()
        answer = clients[i].post(MATCH, body, format="json")
        return answer.status_code, answer.json()

    answers = run_threads(RACERS, work)

    assert all(status == 200 for status, _ in answers), answers
    for racer, (_, view) in zip(racers, answers, strict=True):
        seat = view["you"]["seat"]
        assert view["seats"][seat]["player"]["id"] == racer.id
    seated = Counter(Seat.objects.values_list("player_id", flat=True))
    assert set(seated.values()) == {1}  # nobody sits twice
    assert set(seated) == {p.id for p in early + racers}  # and everyone sits
    games = {str(g.pk): g for g in Game.objects.all()}
    sizes = Counter(str(pk) for pk in Seat.objects.values_list("game_id", flat=True))
    assert all(sizes[pk] <= game.max_players for pk, game in games.items())
    statuses = Counter(game.status for game in games.values())
    assert statuses == {"active": 2, "waiting": 1}  # 27 players: 10 + 10 + 7 waiting
    assert sorted(sizes.values()) == [7, 10, 10]
    assert games[first[0]].status == "active"
    for pk, game in games.items():
        assert len(game.roster) == sizes[pk]
        if game.status == "active":
            assert_consistent(pk)
