"""Private games and invite codes (issue 16): a private game is left out of the lobby, seen by its
seated players only (404 for anyone else, on every game endpoint), and joined by its code."""

from __future__ import annotations

from typing import Any

import pytest

from games.matching import INVITE_ALPHABET
from tests.support.players import Player
from tests.support.table import GAMES, create_game, game_url, ok, refused

pytestmark = pytest.mark.django_db

BY_CODE = "/api/v1/games/join-by-code/"


def _listed(player: Player, **query: Any) -> set[str]:
    page = ok(player.client.get(GAMES, {"page_size": 100, **query}))
    return {game["id"] for game in page["results"]}


def test_a_private_game_shows_its_code_to_its_seated_players_only(
    players: list[Player], outsider: Player
) -> None:
    ada, bob, cy, _ = players
    game = create_game(ada, max_players=3, private=True)
    code = game["invite_code"]
    assert game["settings"]["private"] is True
    assert len(code) == 10 and set(code) <= set(INVITE_ALPHABET)
    assert code not in game["id"].upper().replace("-", "")

    # Typed by a person: any case, with a dash.
    joined = ok(bob.client.post(BY_CODE, {"code": f"{code[:5].lower()}-{code[5:]}"}, "json"))
    assert joined["id"] == game["id"] and joined["you"]["seat"] == 1
    assert joined["invite_code"] == code
    again = ok(bob.client.post(BY_CODE, {"code": code}, format="json"))  # the link, twice
    assert again["you"]["seat"] == 1 and len(again["seats"]) == 2

    started = ok(cy.client.post(BY_CODE, {"code": code}, format="json"))
    assert started["status"] == "active"  # the last seat taken starts it
    refused(outsider.client.post(BY_CODE, {"code": code}, format="json"), 409, "game_full")
    refused(outsider.client.get(game_url(game["id"])), 404, "not_found")

    public = create_game(ada, max_players=2)
    assert "invite_code" not in public and "private" not in public["settings"]
    assert public["id"] in _listed(outsider)


def test_a_wrong_code_is_refused_and_changes_nothing(
    players: list[Player], outsider: Player
) -> None:
    game = create_game(players[0], max_players=3, private=True)
    wrong = "".join(reversed(game["invite_code"]))
    refused(
        outsider.client.post(BY_CODE, {"code": wrong}, format="json"), 404, "invite_code_unknown"
    )
    refused(outsider.client.post(BY_CODE, {"code": "x" * 65}, format="json"), 400, "invalid")
    refused(outsider.client.post(BY_CODE, {"code": 7}, format="json"), 400, "invalid")
    refused(outsider.client.post(BY_CODE, {}, format="json"), 400, "invalid")
    assert len(ok(players[0].client.get(game_url(game["id"])))["seats"]) == 1


def test_a_private_game_is_not_listed_for_others(players: list[Player], outsider: Player) -> None:
    ada, bob, *_ = players
    game = create_game(ada, max_players=3, private=True)["id"]
    ok(
        bob.client.post(
            BY_CODE, {"code": ok(ada.client.get(game_url(game)))["invite_code"]}, "json"
        )
    )
    for query in ({}, {"status": "waiting"}):
        assert game not in _listed(outsider, **query)
    assert game in _listed(ada) and game in _listed(bob, mine="true")


def test_a_private_game_is_not_found_by_outsiders_on_every_endpoint(
    players: list[Player], outsider: Player, staff: Player
) -> None:
    ada, bob, *_ = players
    waiting = create_game(ada, max_players=3, private=True)["id"]
    active = create_game(ada, max_players=2, private=True)
    ok(bob.client.post(BY_CODE, {"code": active["invite_code"]}, format="json"))
    game = active["id"]
    eve = outsider.client

    reads = [
        eve.get(game_url(game)),
        eve.get(game_url(game, "events")),
        eve.get(game_url(game, "events"), {"after": 0, "wait": 1}),
        eve.get(game_url(game, "replay"), {"at": 1}),
        eve.get(game_url(game, "stream"), HTTP_ACCEPT="text/event-stream"),
    ]
    writes = [
        eve.post(game_url(game, "actions"), {"action": "draw"}, format="json"),
        eve.post(game_url(game, "resign")),
        eve.post(game_url(game, "rematch")),
        eve.post(game_url(waiting, "join")),
        eve.post(game_url(waiting, "leave")),
        eve.post(game_url(waiting, "start")),
        eve.post(game_url(waiting, "bots"), {"level": "basic"}, format="json"),
    ]
    for response in reads + writes:
        refused(response, 404, "not_found")
    assert len(ok(ada.client.get(game_url(waiting)))["seats"]) == 1

    # Staff see every game, but a private game is joined by its code only.
    assert ok(staff.client.get(game_url(game, "events")))["version"] > 0
    assert game in _listed(staff)
    refused(staff.client.post(game_url(waiting, "join")), 403, "permission_denied")
    # Its seated players use every endpoint as in a public game.
    assert ok(bob.client.get(game_url(game, "replay"), {"at": 1}))["version"] == 1
