"""Every write to a game goes through here: lock, check, decide, append, project, one transaction.

A write locks the game row (``SELECT … FOR UPDATE``), checks ``expected_version``, asks the
engine, appends the events with consecutive seqs and updates the projections (Game, Seat, Hand)
before the transaction commits, with the plain statements of ``games.store``. The unique
(game, seq) constraint is the last line of defence.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games import engine, store
from games.engine.rules import check_deck
from games.engine.snapshot import state_from_data, state_to_data
from games.models import Event, Game, GameStatus, Hand, IdempotentRequest, Seat
from games.selectors import game_view, parse_game_id, seat_of
from unoservice.errors import DomainError
from unoservice.metrics import record_action, record_events

Player = User
T = TypeVar("T")
MAX_TURN_TIMEOUT = 30 * 24 * 3600
MAX_SEED = 2**63 - 1
# A bound on the timeouts one read applies: a game ends long before (forfeits).
MAX_CATCH_UP = 1000

EVENT_COLUMNS = ("game", "seq", "type", "seat", "data", "created_at")
# The columns of the game row an appended event may change.
PROGRESS_FIELDS = (
    "version",
    "state",
    "status",
    "winner_seat",
    "current_seat",
    "turn_deadline",
    "updated_at",
)

# Called after a write commits with the game as it then stands (the deadline scheduler).
after_commit_hooks: list[Callable[[Game], None]] = []


def lock_game(game_id: str | uuid.UUID) -> Game:
    game = store.lock_row(Game, parse_game_id(game_id))
    if game is None:
        raise DomainError("not_found", "No such game.", 404)
    return game


def _require_seat(game: Game, player: Player) -> int:
    seat = seat_of(game, player)
    if seat is None:
        raise DomainError("not_a_player", "You have no seat in this game.", 403)
    return seat


# --- creating and filling a game -------------------------------------------------------------


@dataclass(frozen=True)
class NewGame:
    max_players: int = 4
    target_score: int = 500
    turn_timeout: int = 86400
    max_timeouts: int = 3
    rules: dict[str, Any] | None = None
    seed: int | None = None
    deck: list[str] | None = None


def game_create(*, player: Player, spec: NewGame) -> Game:
    """A new game waiting for players; the creator takes seat 0."""
    if not 2 <= spec.max_players <= 10:
        raise DomainError("invalid", "max_players must be from 2 to 10.", 400)
    if not 1 <= spec.turn_timeout <= MAX_TURN_TIMEOUT:
        raise DomainError("invalid", f"turn_timeout must be from 1 to {MAX_TURN_TIMEOUT}.", 400)
    options = engine.make_options(
        spec.rules, target_score=spec.target_score, max_timeouts=spec.max_timeouts
    )
    if spec.deck is not None:
        if not getattr(player, "is_staff", False):
            raise DomainError("permission_denied", "Only staff may give a deck.", 403)
        check_deck(spec.deck)
    # A seed fixes every shuffle: whoever knows it knows every hand (issue 11).
    if spec.seed is not None and not (player.is_staff or settings.UNO_SEEDS_FROM_PLAYERS):
        raise DomainError("permission_denied", "Only staff may give a seed.", 403)
    seed = spec.seed if spec.seed is not None else secrets.randbits(63)
    if not 0 <= seed <= MAX_SEED:
        raise DomainError("invalid", f"seed must be from 0 to {MAX_SEED}.", 400)
    with transaction.atomic():
        _require_room_for_a_waiting_game(player)
        game = Game.objects.create(
            max_players=spec.max_players,
            target_score=spec.target_score,
            turn_timeout=spec.turn_timeout,
            max_timeouts=spec.max_timeouts,
            rules=options.rules(),
            seed=seed,
            deck=spec.deck,
            created_by=player,
            roster=[_roster_entry(player)],
        )
        Seat.objects.create(game=game, number=0, player=player)
    return game


def _require_room_for_a_waiting_game(player: Player) -> None:
    """A player holds a seat in at most ``UNO_MAX_WAITING_GAMES`` waiting games (issue 11: one
    created 1,000 in 10 s). The player's row is locked, so racing requests count one by one."""
    store.lock_row(User, player.pk)
    waiting = Seat.objects.filter(player=player, game__status=GameStatus.WAITING).count()
    if waiting >= settings.UNO_MAX_WAITING_GAMES:
        raise DomainError(
            "too_many_waiting_games",
            f"You already have a seat in {waiting} waiting games; start or leave one first.",
            409,
        )


def _roster_entry(player: Player) -> dict[str, Any]:
    return {"id": player.pk, "username": player.get_username()}


def _require_waiting(game: Game) -> None:
    if game.status != GameStatus.WAITING:
        raise DomainError("game_not_waiting", f"The game is {game.status}, not waiting.", 409)


def game_join(*, player: Player, game_id: str | uuid.UUID) -> Game:
    """Take the next free seat; a game whose seats are all taken starts by itself."""
    with transaction.atomic():
        game = lock_game(game_id)
        if seat_of(game, player) is not None:
            raise DomainError("already_seated", "You already have a seat in this game.", 409)
        # Checked before the status: a game whose seats are all taken has started by itself.
        if len(game.roster) >= game.max_players:
            raise DomainError("game_full", "Every seat of this game is taken.", 409)
        _require_waiting(game)
        if len(game.roster) + 1 < game.max_players:  # the game stays waiting after this join
            _require_room_for_a_waiting_game(player)
        Seat.objects.create(game=game, number=len(game.roster), player=player)
        game.roster = [*game.roster, _roster_entry(player)]
        game.save(update_fields=["roster", "updated_at"])
        if len(game.roster) == game.max_players:
            _start(game)
    _committed(game)
    return game


def game_leave(*, player: Player, game_id: str | uuid.UUID) -> Game:
    """Leave a game that has not started; the seats after close up. An empty game is abandoned."""
    with transaction.atomic():
        game = lock_game(game_id)
        number = _require_seat(game, player)
        _require_waiting(game)
        Seat.objects.filter(game=game, number=number).delete()
        for later in range(number + 1, len(game.roster)):
            Seat.objects.filter(game=game, number=later).update(number=later - 1)
        game.roster = [entry for i, entry in enumerate(game.roster) if i != number]
        if not game.roster:
            game.status = GameStatus.ABANDONED
        game.save(update_fields=["roster", "status", "updated_at"])
    return game


def game_start(*, player: Player, game_id: str | uuid.UUID) -> Game:
    """The host (seat 0, the creator unless they left) starts the game with 2 or more seated."""
    with transaction.atomic():
        game = lock_game(game_id)
        number = _require_seat(game, player)
        _require_waiting(game)
        if number != 0:
            raise DomainError("permission_denied", "Only the host (seat 0) starts the game.", 403)
        if len(game.roster) < 2:
            raise DomainError("not_enough_players", "A game needs at least 2 players.", 409)
        _start(game)
    _committed(game)
    return game


def _options(game: Game) -> engine.Options:
    return engine.make_options(
        game.rules, target_score=game.target_score, max_timeouts=game.max_timeouts
    )


def _start(game: Game) -> None:
    players = len(game.roster)
    events = engine.start_game(players, _options(game), game.seed, deck=game.deck)
    state = engine.replay(events)
    Hand.objects.bulk_create(Hand(game=game, seat=seat, cards=[]) for seat in range(players))
    _append(game, None, events, state)


# --- acting ----------------------------------------------------------------------------------


def _append(
    game: Game,
    before: engine.GameState | None,
    events: Sequence[engine.Event],
    after: engine.GameState,
    clock: datetime | None = None,
) -> None:
    """Append ``events`` to the log and bring the projections up to ``after``.

    A change of who must act sets the turn deadline ``turn_timeout`` after ``clock`` (now by
    default; a late timeout passes the deadline it acted on, so overdue timeouts keep their pace).
    """
    base = game.version
    now = timezone.now()
    writes = [
        store.insert(
            Event,
            EVENT_COLUMNS,
            (
                (game.pk, base + i, e["type"], e["seat"], e["data"], now)
                for i, e in enumerate(events, 1)
            ),
        )
    ]
    game.version = base + len(events)
    record_events(game_id=game.pk, version=game.version, events=events)
    project_summary(game, after)
    if after.status == "active" and any(e["type"] == "turn_changed" for e in events):
        start = clock if clock is not None else now
        game.turn_deadline = start + timedelta(seconds=game.turn_timeout)
    writes.append(store.update_fields(game, PROGRESS_FIELDS))
    for seat in range(after.players):
        if before is None or before.hands[seat] != after.hands[seat]:
            cards = list(after.hands[seat])
            writes.append(store.update(Hand, {"cards": cards}, {"game": game.pk, "seat": seat}))
    for seat in range(after.players):
        status, score = after.statuses[seat], after.scores[seat]
        if before is None or before.statuses[seat] != status or before.scores[seat] != score:
            if before is None and (status, score) == ("playing", 0):
                continue  # a new seat row already says so
            writes.append(
                store.update(
                    Seat, {"status": status, "score": score}, {"game": game.pk, "number": seat}
                )
            )
    store.run(writes)


def project_summary(game: Game, state: engine.GameState) -> None:
    """Set the summary columns of ``game`` (not saved) from the engine state after its log."""
    game.state = state_to_data(state)
    finished = state.status == "finished"
    game.status = GameStatus.FINISHED if finished else GameStatus.ACTIVE
    game.winner_seat = state.winner
    game.current_seat = None if finished else state.actor
    if finished:
        game.turn_deadline = None


def _committed(game: Game) -> None:
    for hook in after_commit_hooks:
        transaction.on_commit(lambda hook=hook: hook(game))  # type: ignore[misc]


def load_state(game: Game) -> engine.GameState:
    if game.state is None:
        raise DomainError("game_not_active", f"The game is {game.status}.", 409)
    return state_from_data(game.state)


def _fingerprint(body: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


@dataclass(frozen=True)
class ActionResult:
    status_code: int
    body: dict[str, Any]
    replayed: bool = False


def _write(game_id: str | uuid.UUID, work: Callable[[Game], T]) -> T:
    """Run ``work`` on the locked game, in one transaction, after its overdue timeouts.

    Overdue timeouts are committed in a transaction of their own first: they stand whatever
    becomes of the write that found them.
    """
    while True:
        with transaction.atomic():
            game = lock_game(game_id)
            if not is_overdue(game):
                result = work(game)
                break
            catch_up_locked(game)
        _committed(game)
    _committed(game)
    return result


def game_act(
    *,
    player: Player,
    game_id: str | uuid.UUID,
    action: dict[str, Any],
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    request_body: dict[str, Any] | None = None,
) -> ActionResult:
    """Apply ``action`` by the caller's seat; the answer is the game view after it."""
    # Only a request that may be retried needs its body remembered.
    fingerprint = (
        _fingerprint(request_body if request_body is not None else action)
        if idempotency_key is not None
        else ""
    )

    def act(game: Game) -> ActionResult:
        if idempotency_key is not None:
            stored = IdempotentRequest.objects.filter(
                player_id=player.pk, game=game, key=idempotency_key
            ).first()
            if stored is not None:
                if stored.fingerprint != fingerprint:
                    raise DomainError(
                        "idempotency_key_reused",
                        "This Idempotency-Key was used with a different request.",
                        422,
                    )
                return ActionResult(stored.status_code, stored.response, replayed=True)
        seat = _require_seat(game, player)
        if game.status != GameStatus.ACTIVE:
            raise DomainError("game_not_active", f"The game is {game.status}.", 409)
        if expected_version is not None and expected_version != game.version:
            raise DomainError(
                "version_conflict",
                f"The game is at version {game.version}, not {expected_version}.",
                409,
            )
        before = load_state(game)
        events, after = engine.act(before, seat, action)
        _append(game, before, events, after)
        record_action(game_id=game.pk, seat=seat, action=action["action"], version=game.version)
        body = game_view(game, player, state=after)
        if idempotency_key is not None:
            IdempotentRequest.objects.create(
                player_id=player.pk,
                game=game,
                key=idempotency_key,
                fingerprint=fingerprint,
                status_code=200,
                response=body,
            )
        return ActionResult(200, body)

    return _write(game_id, act)


def game_resign(*, player: Player, game_id: str | uuid.UUID) -> Game:
    """Leave a started game for good: a forfeit. A game left with one player ends."""

    def resign(game: Game) -> Game:
        seat = _require_seat(game, player)
        if game.status != GameStatus.ACTIVE:
            raise DomainError("game_not_active", f"The game is {game.status}.", 409)
        before = load_state(game)
        events, after = engine.resign(before, seat)
        _append(game, before, events, after)
        return game

    return _write(game_id, resign)


def game_time_out(*, game_id: str | uuid.UUID, version: int | None = None) -> bool:
    """Act for the seat whose turn deadline has passed. False when there is nothing to do.

    With ``version``, only if the game is still at that version: a stale or repeated task finds
    the game moved on and does nothing.
    """
    with transaction.atomic():
        game = lock_game(game_id)
        if version is not None and game.version != version:
            return False
        acted = _time_out_locked(game)
    if acted:
        _committed(game)
    return acted


def _time_out_locked(game: Game) -> bool:
    deadline = game.turn_deadline
    if game.status != GameStatus.ACTIVE or deadline is None or deadline > timezone.now():
        return False
    before = load_state(game)
    events, after = engine.time_out(before)
    _append(game, before, events, after, clock=deadline)
    return True


def catch_up_locked(game: Game) -> int:
    """Apply every overdue timeout of a locked game, in order; return how many."""
    count = 0
    while count < MAX_CATCH_UP and _time_out_locked(game):
        count += 1
    return count


def caught_up(game: Game) -> Game:
    """The lazy path: a game read after its deadline first gets its overdue timeouts."""
    if not is_overdue(game):
        return game
    with transaction.atomic():
        game = lock_game(game.pk)
        count = catch_up_locked(game)
    if count:
        _committed(game)
    return game


def is_overdue(game: Game) -> bool:
    return (
        game.status == GameStatus.ACTIVE
        and game.turn_deadline is not None
        and game.turn_deadline <= timezone.now()
    )


def overdue_game_ids(limit: int) -> list[uuid.UUID]:
    return list(
        Game.objects.filter(status=GameStatus.ACTIVE, turn_deadline__lte=timezone.now())
        .order_by("turn_deadline")
        .values_list("id", flat=True)[:limit]
    )
