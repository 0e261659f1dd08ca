"""Replays: the view right after any event, as the engine saw it; finished games fully revealed."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import engine
from games.engine.bots import choose
from tests.support.fairness import fairness_fields
from tests.support.players import Player
from tests.support.table import create_game, db_log, game_url, ok, play_to_end, refused, start_table

pytestmark = pytest.mark.django_db


def expected_replay(
    table_id: str,
    settings: dict[str, Any],
    log: list[engine.Event],
    at: int,
    seat: int | None,
    names: dict[int, dict[str, Any]],
    revealed: bool | None,
) -> dict[str, Any]:
    state = engine.replay(log[:at])
    shown = engine.view(state, seat, revealed)
    shown.pop("status")
    for entry in shown["seats"]:
        entry["player"] = names[entry["seat"]]
    return {
        "id": table_id,
        "status": state.status,
        "version": at,
        "settings": settings,
        **fairness_fields(table_id),
        **shown,
    }


def test_replay_at_every_seq_of_a_finished_game(players: list[Player], outsider: Player) -> None:
    table = start_table(players[:3], target_score=1, seed=424_242_424_242, rules={"stacking": True})
    final = play_to_end(table, random.Random(8))
    assert final["status"] == "finished"
    log = db_log(table.id)
    assert final["version"] == len(log)
    names = {s["seat"]: s["player"] for s in final["seats"]}
    viewers: list[tuple[int | None, Any]] = [
        *((seat, players[seat].client) for seat in range(3)),
        (None, outsider.client),
    ]

    for at in range(1, len(log) + 1):
        seat, client = viewers[at % 4]
        body = ok(client.get(table.url("replay"), {"at": at}))
        assert body == expected_replay(
            table.id, final["settings"], log, at, seat, names, revealed=True
        ), at
        assert "revealed" in body and all("hand" in s for s in body["seats"])

    # The replay of the last event is the game as it stands.
    last = ok(players[0].client.get(table.url("replay"), {"at": len(log)}))
    now = table.view(0)
    for key in ("status", "seats", "you", "last_round", "winner_seat", "revealed"):
        assert last[key] == now[key], key
    assert {k: v for k, v in last["round"].items()} == {
        k: v for k, v in now["round"].items() if k != "turn_deadline"
    }


def test_replay_of_an_active_game_shows_each_seat_its_own_past(players: list[Player]) -> None:
    table = start_table(players[:3], seed=99_999_999_999)
    rng = random.Random(1)
    for _ in range(12):
        actor = table.actor()
        table.act(actor, **choose(rng, table.view(actor)))
    log = db_log(table.id)
    names = {s["seat"]: s["player"] for s in table.view(0)["seats"]}
    settings = table.view(0)["settings"]
    for at in (1, 2, 3, 4, len(log) // 2, len(log)):
        for seat in range(3):
            body = table.replay(seat, at)
            assert body == expected_replay(table.id, settings, log, at, seat, names, None)
            assert "revealed" not in body


def test_replay_out_of_range(players: list[Player]) -> None:
    table = start_table(players[:2])
    version = table.view(0)["version"]
    client = table.client(0)

    refused(client.get(table.url("replay"), {"at": version + 1}), 400, "seq_out_of_range")
    refused(client.get(table.url("replay"), {"at": 10**9}), 400, "seq_out_of_range")
    for bad in ({"at": 0}, {"at": -1}, {"at": "x"}, {}, {"at": 1, "extra": 2}, {"at": 2**40}):
        refused(client.get(table.url("replay"), bad), 400, "invalid")
    assert table.replay(0, version)["version"] == version


def test_replay_of_a_waiting_game(players: list[Player]) -> None:
    game = create_game(players[0])

    response = players[0].client.get(game_url(game["id"], "replay"), {"at": 1})

    refused(response, 400, "seq_out_of_range")
