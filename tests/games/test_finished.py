"""A finished game in the lists: when it ended and, with teams, which team won (the lobby's
"Finished games" rows say both), kept on the game row and backfilled for games finished before."""

from __future__ import annotations

import random
from datetime import datetime
from importlib import import_module
from typing import Any

import pytest
from django.apps import apps

from games.models import Event, Game
from games.projections import rebuild_game
from notifications.models import Kind, Notification
from tests.support.players import Player
from tests.support.table import GAMES, create_game, ok, play_to_end, seat_players

pytestmark = pytest.mark.django_db


def listed(player: Player, game_id: str) -> dict[str, Any]:
    page = ok(player.client.get(GAMES, {"mine": "true", "status": "finished"}))
    return next(item for item in page["results"] if item["id"] == game_id)


def ended_at(game_id: str) -> datetime:
    return Event.objects.get(game_id=game_id, type="game_ended").created_at


def test_a_team_game_lists_its_winning_team_and_when_it_ended(players: list[Player]) -> None:
    game = create_game(players[0], max_players=4, teams=2, target_score=50)
    table = seat_players(players[0], players[1:4], game)
    final = play_to_end(table, random.Random(7))
    assert final["status"] == "finished"
    item = listed(players[2], table.id)
    team = final["winner_team"]
    assert team in (0, 1)
    assert item["winner_team"] == team
    assert item["winner_seat"] == final["winner_seat"]
    assert datetime.fromisoformat(item["finished_at"]) == ended_at(table.id)
    # Each seat hears which team won, and whether it was theirs; no single winner is named.
    heard = Notification.objects.filter(game_id=table.id, kind=Kind.GAME_FINISHED)
    assert {
        (n.data["seat"], n.data["won"], n.data["winner_team"], n.data["winner"]) for n in heard
    } == {(seat, seat % 2 == team, team, None) for seat in range(4)}


def test_an_active_game_has_no_end(players: list[Player]) -> None:
    game = create_game(players[0], max_players=2)
    table = seat_players(players[0], players[1:2], game)
    page = ok(players[0].client.get(GAMES, {"mine": "true"}))
    item = next(item for item in page["results"] if item["id"] == table.id)
    assert item["finished_at"] is None and item["winner_team"] is None


def test_games_finished_before_are_backfilled_and_rebuilt(players: list[Player]) -> None:
    backfill = import_module("games.migrations.0018_game_finished_at_winner_team").backfill
    game = create_game(players[0], max_players=4, teams=2, target_score=50)
    table = seat_players(players[0], players[1:4], game)
    final = play_to_end(table, random.Random(11))
    Game.objects.filter(pk=table.id).update(finished_at=None, winner_team=None)
    assert listed(players[0], table.id)["finished_at"] is None

    backfill(apps, None)
    item = listed(players[0], table.id)
    assert item["winner_team"] == final["winner_team"]
    assert datetime.fromisoformat(item["finished_at"]) == ended_at(table.id)

    # The projections rebuilt from the log say the same.
    Game.objects.filter(pk=table.id).update(finished_at=None, winner_team=None)
    assert rebuild_game(Game.objects.get(pk=table.id))
    item = listed(players[0], table.id)
    assert item["winner_team"] == final["winner_team"]
    assert datetime.fromisoformat(item["finished_at"]) == ended_at(table.id)
