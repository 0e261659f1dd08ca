"""The projections of a game's log: the rows beside it that a fold of the log determines.

``Game`` holds a summary (status, current seat, winner, the engine snapshot), ``Seat`` each
seat's standing (status, score) and ``Hand`` each seat's cards. ``projection_of`` says what they
must hold after a state; ``changes`` what differs from what they hold. The live path compares
with the state before an action, ``rebuild_game`` with the rows as stored; both write through
``eventstore.save``, the one writer of these rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction

from games import checkpoints, engine, eventstore
from games.engine.snapshot import state_to_data
from games.eventstore import Changes, Standing
from games.models import Game, GameStatus, Hand, Seat


@dataclass(frozen=True)
class Projection:
    standings: tuple[Standing, ...]
    hands: tuple[tuple[str, ...], ...]


def projection_of(state: engine.GameState) -> Projection:
    return Projection(tuple(zip(state.statuses, state.scores, strict=True)), state.hands)


def blank(seats: int) -> Projection:
    """What a new game's rows hold: every seat playing with no points, every hand empty."""
    return Projection((("playing", 0),) * seats, ((),) * seats)


def changes(current: Projection, target: Projection) -> Changes:
    return Changes(
        standings={
            seat: standing
            for seat, standing in enumerate(target.standings)
            if seat >= len(current.standings) or current.standings[seat] != standing
        },
        hands={
            seat: cards
            for seat, cards in enumerate(target.hands)
            if seat >= len(current.hands) or current.hands[seat] != cards
        },
    )


def project_summary(game: Game, state: engine.GameState, at: datetime) -> None:
    """Set the summary columns of ``game`` (not saved) from the engine state after its log,
    whose last event was appended ``at`` (a finished game keeps the moment it first ended)."""
    game.state = state_to_data(state)
    finished = state.status == "finished"
    game.status = GameStatus.FINISHED if finished else GameStatus.ACTIVE
    game.winner_seat = state.winner
    game.winner_team = state.winner_team
    game.finished_at = (game.finished_at or at) if finished else None
    game.current_seat = None if finished else state.actor
    if finished:  # no turn: no deadline and no reminder (the sweep's reads skip the game)
        game.turn_deadline = game.remind_at = None


def _summary(game: Game) -> tuple[object, ...]:
    return (
        game.version,
        game.state,
        game.status,
        game.winner_seat,
        game.winner_team,
        game.finished_at,
        game.current_seat,
        game.last_hash,
    )


def _stored(game: Game, seats: int) -> tuple[Projection, bool]:
    """The rows as stored, and whether a missing hand row had to be created (empty) first."""
    standings = dict(
        (s.number, (s.status, s.score)) for s in Seat.objects.filter(game=game).order_by("number")
    )
    hands = {h.seat: tuple(h.cards) for h in Hand.objects.filter(game=game)}
    missing = [seat for seat in range(seats) if seat not in hands]
    Hand.objects.bulk_create(Hand(game=game, seat=seat, cards=[]) for seat in missing)
    stored = Projection(
        tuple(standings.get(seat, ("playing", 0)) for seat in range(seats)),
        tuple(hands.get(seat, ()) for seat in range(seats)),
    )
    return stored, bool(missing)


def rebuild_game(game: Game) -> bool:
    """Rewrite ``game``'s projections from its log; True if anything differed."""
    with transaction.atomic():
        game = eventstore.lock_game(game.pk)
        rows = list(eventstore.select_events(game.pk))
        if not rows:
            return False
        if [r.seq for r in rows] != list(range(1, len(rows) + 1)):
            raise ValueError(f"the log of game {game.pk} has gaps")
        log = list(eventstore.as_log(rows))
        state = engine.replay(log)
        checkpoints.rebuild(game, log)
        before = _summary(game)
        game.version = rows[-1].seq
        game.last_hash = rows[-1].hash
        project_summary(game, state, rows[-1].created_at)
        stored, created = _stored(game, state.players)
        differences = changes(stored, projection_of(state))
        eventstore.save(game, game.version + 1, [], differences, game.updated_at)
        return (
            created
            or before != _summary(game)
            or bool(differences.standings)
            or bool(differences.hands)
        )
