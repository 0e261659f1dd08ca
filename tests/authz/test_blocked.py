"""What a blocked player can still do to the one who blocked them (api.md: a block keeps the two
apart both ways), beyond tests/tables/test_safety.py and tests/tables/test_challenges.py: seat the
blocker's bot account (at creation or later), and read the blocker's lines on the game stream
(its ``chat`` frames) as a spectator of their table, nor the other way round. All refused or
filtered; these passed before."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Game
from tests.support.players import Player
from tests.support.table import create_game, game_url, ok, refused

pytestmark = pytest.mark.django_db


def _stream_text(player: Player, game: str) -> str:
    answer: Any = player.client.get(
        game_url(game, "stream"), {"after": 0, "chat_after": 0}, HTTP_ACCEPT="text/event-stream"
    )
    assert answer.status_code == 200
    return b"".join(answer.streaming_content).decode()


def test_a_blocked_player_seats_no_bot_account_of_the_blocker(
    players: list[Player], outsider: Player
) -> None:
    program, eve = players[0], outsider
    ok(program.client.post("/api/v1/players/me/bot-account/"))
    ok(program.client.post(f"/api/v1/players/{eve.id}/block/"), 201)
    games = Game.objects.count()

    body = {"max_players": 3, "bot_accounts": [program.user.username]}
    refused(eve.client.post("/api/v1/games/", body, format="json"), 403, "blocked")
    assert Game.objects.count() == games
    waiting = create_game(eve, max_players=3)
    account = {"account": program.user.username}
    refused(
        eve.client.post(game_url(waiting["id"], "bots"), account, format="json"), 403, "blocked"
    )
    assert len(ok(eve.client.get(game_url(waiting["id"])))["seats"]) == 1


def test_neither_reads_the_others_lines_on_the_game_stream(
    players: list[Player], outsider: Player
) -> None:
    ada, bob, cy, _ = players
    eve = outsider
    ok(ada.client.post(f"/api/v1/players/{eve.id}/block/"), 201)
    # Eve watches a table of ada's; ada watches a table of eve's.
    adas = create_game(ada, max_players=2)["id"]
    ok(bob.client.post(game_url(adas, "join")))
    eves = create_game(eve, max_players=2)["id"]
    ok(cy.client.post(game_url(eves, "join")))
    for player, game, text in (
        (ada, adas, "ada at her table"),
        (bob, adas, "bob at ada's table"),
        (eve, eves, "eve at her table"),
        (cy, eves, "cy at eve's table"),
    ):
        ok(player.client.post(game_url(game, "chat"), {"text": text}, format="json"), 201)

    seen_by_eve = _stream_text(eve, adas)
    assert "bob at ada's table" in seen_by_eve and "ada at her table" not in seen_by_eve
    seen_by_ada = _stream_text(ada, eves)
    assert "cy at eve's table" in seen_by_ada and "eve at her table" not in seen_by_ada
