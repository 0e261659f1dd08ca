"""A long game's replay starts from a checkpoint: bounded work at any point, the same views."""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command

from games import checkpoints
from games.engine.bots import choose
from games.engine.limits import CHECKPOINT_EVERY
from games.models import Checkpoint, Game
from tests.games.test_replay import expected_replay
from tests.support.players import Player
from tests.support.table import Table, db_log, start_table

pytestmark = pytest.mark.django_db

# One write appends a handful of events (a play that ends a round deals the next one).
ONE_WRITE = 40


def long_table(players: list[Player], events: int) -> Table:
    """Two seats that mostly draw and pass until the log holds ``events`` events."""
    table = start_table(players[:2], seed=77_777_777_777)
    rng = random.Random(3)
    view = table.view(0)
    while view["version"] < events:
        actor = table.actor()
        view = table.act(actor, **choose(rng, table.view(actor), prefer_play=0.2))
        assert view["status"] == "active"
    return table


def test_replays_start_from_checkpoints_kept_along_the_log(players: list[Player]) -> None:
    table = long_table(players, 2 * CHECKPOINT_EVERY + 10)
    game = Game.objects.get(pk=table.id)
    kept = list(Checkpoint.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert len(kept) == game.version // CHECKPOINT_EVERY
    for number, seq in enumerate(kept, 1):
        assert number * CHECKPOINT_EVERY <= seq < number * CHECKPOINT_EVERY + ONE_WRITE
    # Any point of the log is at most one checkpoint's spacing (and a write) past a checkpoint.
    for at in (*range(kept[0], game.version + 1, 7), game.version):
        start = checkpoints.nearest(game, at)
        assert start is not None and at - start.seq < CHECKPOINT_EVERY + ONE_WRITE, at

    # Replays from the checkpoints equal the fold of the whole log.
    log = db_log(table.id)
    settings = table.view(0)["settings"]
    names = {s["seat"]: s["player"] for s in table.view(0)["seats"]}
    points = {1, len(log)} | {seq + d for seq in kept for d in (-1, 0, 1)}
    for at in sorted(p for p in points if 1 <= p <= len(log)):
        for seat in (0, 1):
            body = table.replay(seat, at)
            assert body == expected_replay(table.id, settings, log, at, seat, names, None), at


def test_rebuilding_the_projections_rewrites_the_checkpoints(players: list[Player]) -> None:
    table = long_table(players, CHECKPOINT_EVERY + 10)
    before = {seat: table.replay(seat, CHECKPOINT_EVERY + 5) for seat in (0, 1)}
    Checkpoint.objects.filter(game_id=table.id).delete()
    call_command("rebuild_projections")
    assert list(Checkpoint.objects.filter(game_id=table.id).values_list("seq", flat=True)) == [
        CHECKPOINT_EVERY
    ]
    assert {seat: table.replay(seat, CHECKPOINT_EVERY + 5) for seat in (0, 1)} == before
