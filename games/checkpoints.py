"""Checkpoints of a game's state along its log, so that a replay's cost is bounded.

A game's log can grow without end (draws and passes), and the replay of a point ``at`` used to fold
every event up to it. The write path keeps the state after the write whenever it crosses a
multiple of ``limits.CHECKPOINT_EVERY``; a replay starts from the last checkpoint at or before
``at`` and folds the rest, at most ``CHECKPOINT_EVERY`` plus one write's events.
"""

from __future__ import annotations

from games import engine, eventstore
from games.engine.limits import CHECKPOINT_EVERY
from games.engine.snapshot import state_from_data, state_to_data
from games.models import Checkpoint, Game


def crosses(before: int, after: int) -> bool:
    """Whether a write taking a log from ``before`` to ``after`` events passes a checkpoint."""
    return after // CHECKPOINT_EVERY > before // CHECKPOINT_EVERY


def keep(game: Game, before: int, state: engine.GameState) -> None:
    """Keep ``state`` (after ``game.version``) as a checkpoint if this write crossed a multiple.

    Called inside the write's transaction: a rolled-back write leaves no checkpoint.
    """
    if crosses(before, game.version):
        Checkpoint.objects.create(game=game, seq=game.version, state=state_to_data(state))


def nearest(game: Game, at: int) -> Checkpoint | None:
    """The last checkpoint at or before event ``at``."""
    return Checkpoint.objects.filter(game=game, seq__lte=at).order_by("-seq").first()


def state_at(game: Game, at: int) -> engine.GameState:
    """The engine state right after event ``at`` (1 ≤ at ≤ game.version)."""
    start = nearest(game, at)
    rows = eventstore.select_events(game.pk, start.seq if start is not None else 0, until=at)
    log = eventstore.as_log(rows.iterator())
    return engine.replay(log, state_from_data(start.state) if start is not None else None)


def rebuild(game: Game, log: list[engine.Event]) -> int:
    """Rewrite ``game``'s checkpoints from its whole ``log``; how many there are now."""
    Checkpoint.objects.filter(game=game).delete()
    state: engine.GameState | None = None
    kept = []
    for seq, item in enumerate(log, 1):
        state = engine.apply(state, item)
        if seq % CHECKPOINT_EVERY == 0:
            kept.append(Checkpoint(game=game, seq=seq, state=state_to_data(state)))
    Checkpoint.objects.bulk_create(kept)
    return len(kept)
