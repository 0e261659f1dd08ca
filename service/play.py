"""The services of play: a seat's action, and resigning. The engine decides; this stores.

An action names no seat: the caller's seat is looked up from the roster. ``expected_version``
refuses an action sent against a game that has moved on; an ``Idempotency-Key`` makes a retried
request return its first answer and act once (only successful answers are stored, so a key whose
first request was refused may act later).
"""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User

from games import engine
from games.models import Game, GameStatus, IdempotentRequest
from service import bots
from service.away import game_view
from service.lobby import require_seat
from service.unit_of_work import GameWrite, game_write
from unoservice.errors import DomainError
from unoservice.metrics import record_action

Player = User


@dataclass(frozen=True)
class Played:
    """The game after an action, and its state; ``answer`` when the answer was rendered here
    (an action with an Idempotency-Key stores its answer in the same transaction)."""

    game: Game
    state: engine.GameState
    answer: dict[str, Any] | None = None


def _fingerprint(body: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


def _require_active(game: Game) -> None:
    if game.status != GameStatus.ACTIVE:
        raise DomainError("game_not_active", f"The game is {game.status}.")


def _stored_answer(game: Game, player: Player, key: str, fingerprint: str) -> dict[str, Any] | None:
    stored = IdempotentRequest.objects.filter(player_id=player.pk, game=game, key=key).first()
    if stored is None:
        return None
    if stored.fingerprint != fingerprint:
        raise DomainError(
            "idempotency_key_reused", "This Idempotency-Key was used with a different request."
        )
    return stored.response


def game_act(
    *,
    player: Player,
    game_id: str | uuid.UUID,
    action: dict[str, Any],
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    request_body: dict[str, Any] | None = None,
) -> Played:
    """Apply ``action`` by the caller's seat."""
    # Only a request that may be retried needs its body remembered.
    fingerprint = (
        _fingerprint(request_body if request_body is not None else action)
        if idempotency_key is not None
        else ""
    )
    with game_write(game_id, viewer=player) as write:
        game = write.game
        if idempotency_key is not None:
            answer = _stored_answer(game, player, idempotency_key, fingerprint)
            if answer is not None:
                return Played(game, write.state, answer)
        seat = require_seat(game, player)
        _require_active(game)
        _require_not_bot_played(game, seat)
        if expected_version is not None and expected_version != game.version:
            raise DomainError(
                "version_conflict",
                f"The game is at version {game.version}, not {expected_version}.",
            )
        events, after = engine.act(write.state, seat, action, left=write.left())
        write.append(events, after)
        record_action(game_id=game.pk, seat=seat, action=action["action"], version=game.version)
        if idempotency_key is None:
            return Played(game, after)
        answer = game_view(game, player, state=after)
        IdempotentRequest.objects.create(
            player_id=player.pk,
            game=game,
            key=idempotency_key,
            fingerprint=fingerprint,
            status_code=200,
            response=answer,
        )
        return Played(game, after, answer)


def _require_not_bot_played(game: Game, seat: int) -> None:
    if bots.level_of(game, seat) is not None:
        raise DomainError("not_a_player", "A bot plays this seat now.")


def game_bot_turn(*, game_id: str | uuid.UUID, version: int) -> bool:
    """A bot that must or may act makes its move, through the same write as a player's action, if
    the game is still at ``version`` (a racing action or timeout got there first otherwise)."""
    with game_write(game_id, catch_up=False) as write:
        if write.game.version != version:
            return False
        return bots.play_move(write)


def game_resign(*, player: Player, game_id: str | uuid.UUID) -> Game:
    """Leave a started game for good: a forfeit. A game left with one player ends."""
    with game_write(game_id, viewer=player) as write:
        _resign(write, require_seat(write.game, player))
    return write.game


def _resign(write: GameWrite, seat: int) -> None:
    _require_active(write.game)
    _require_not_bot_played(write.game, seat)
    if write.game.bot_takeover:  # a basic bot plays on for the seat instead of its forfeit
        write.append(*bots.take_over(write.game, write.state, seat, "resign"))
        bots.play_turn(write)
        return
    events, after = engine.resign(write.state, seat, left=write.left())
    write.append(events, after)
