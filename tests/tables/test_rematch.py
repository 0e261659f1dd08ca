"""Rematch (issue 16): after a finished game, each of its players asks by the same call, in any
order; the first creates the game (same settings, bots seated, reserved for these players), the
others join it, and it starts with the seats shifted by one once every person has joined."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.support.players import Player
from tests.support.table import create_game, game_url, ok, refused

pytestmark = pytest.mark.django_db

SETTINGS = {
    "target_score": 300,
    "turn_timeout": 600,
    "max_timeouts": 2,
    "rules": {"stacking": True, "scoring": "penalty"},
}


def _finished(players: list[Player], **settings: object) -> str:
    """A game of ``players`` (seat order) ended by forfeits: every seat after the first resigns."""
    host, *others = players
    game = create_game(host, max_players=len(players), **settings)["id"]
    for player in others:
        ok(player.client.post(game_url(game, "join")))
    for player in others:
        ok(player.client.post(game_url(game, "resign")))
    assert ok(host.client.get(game_url(game)))["status"] == "finished"
    return game


@pytest.mark.parametrize("order", [(0, 1, 2), (2, 0, 1), (1, 2, 0)])
def test_each_player_asks_in_any_order_and_the_rematch_starts_shifted(
    players: list[Player], outsider: Player, order: tuple[int, int, int]
) -> None:
    seated = players[:3]
    old = _finished(seated, **SETTINGS)
    old_settings = ok(seated[0].client.get(game_url(old)))["settings"]
    rematch = None
    for count, index in enumerate(order, 1):
        view = ok(seated[index].client.post(game_url(old, "rematch")))
        rematch = rematch or view["id"]
        assert view["id"] == rematch != old
        assert view["settings"] == {**old_settings, "private": True}
        assert "invite_code" not in view  # reserved: no code lets anyone else in
        assert ok(seated[index].client.get(game_url(old)))["rematch"] == rematch
        if count < len(order):
            assert view["status"] == "waiting" and len(view["seats"]) == count
            again = ok(seated[index].client.post(game_url(old, "rematch")))  # idempotent
            assert len(again["seats"]) == count
            refused(outsider.client.get(game_url(rematch)), 404, "not_found")
            refused(outsider.client.post(game_url(rematch, "join")), 404, "not_found")
    assert view["status"] == "active"
    # Seat i of the rematch is seat i + 1 of the finished game: the next dealer deals.
    ids = [seat["player"]["id"] for seat in view["seats"]]
    assert ids == [seated[1].id, seated[2].id, seated[0].id]
    assert view["round"]["dealer"] == 2
    assert rematch is not None
    assert ok(seated[0].client.get(game_url(rematch)))["you"]["seat"] == 2


def test_the_others_are_invited(players: list[Player]) -> None:
    seated = players[:3]
    old = _finished(seated)
    rematch = ok(seated[1].client.post(game_url(old, "rematch")))["id"]
    for player in (seated[0], seated[2]):
        page = ok(player.client.get("/api/v1/notifications/"))
        invited = [n for n in page["results"] if n["kind"] == "invited"]
        assert [n["game"] for n in invited] == [rematch]


@pytest.mark.django_db(transaction=True)  # bots play after commits
def test_a_game_with_bots_is_rematched_with_its_bots(players: list[Player]) -> None:
    ada = players[0]
    body = {"max_players": 3, "target_score": 1, "bots": ["basic", "strong"]}
    old = ok(ada.client.post("/api/v1/games/", body, format="json"), 201)["id"]
    ok(ada.client.post(game_url(old, "resign")))  # the bots play on to the end, in-process
    finished = ok(ada.client.get(game_url(old)))
    assert finished["status"] == "finished"
    view = ok(ada.client.post(game_url(old, "rematch")))
    assert view["status"] != "waiting"  # the one person is there: it starts at once
    assert [s.get("bot") for s in view["seats"]] == ["basic", "strong", None]
    old_ids = [s["player"]["id"] for s in finished["seats"]]
    assert [s["player"]["id"] for s in view["seats"]] == old_ids[1:] + old_ids[:1]


def test_refusals(players: list[Player], outsider: Player) -> None:
    ada, bob, *_ = players
    waiting = create_game(ada, max_players=2)["id"]
    refused(ada.client.post(game_url(waiting, "rematch")), 409, "game_not_finished")
    ok(bob.client.post(game_url(waiting, "join")))
    refused(ada.client.post(game_url(waiting, "rematch")), 409, "game_not_finished")
    ok(bob.client.post(game_url(waiting, "resign")))
    refused(outsider.client.post(game_url(waiting, "rematch")), 403, "not_a_player")
    refused(outsider.client.post(game_url("nope", "rematch")), 404, "not_found")
    assert Game.objects.get(pk=waiting).rematch_id is None
