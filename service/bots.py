"""Bots in the service: seating them, and playing a bot's turn through the write path.

A bot is a user with a ``players.Bot`` row (it cannot sign in); its seat's roster entry carries
``"bot": level``. So does the seat of a person whose game has ``bot_takeover`` once they forfeit: a
``basic`` bot plays on for them. A bot acts when it must (it is the seat to act) and when it may off
its turn (say UNO, catch a seat that did not, jump in): a subscriber of the write that made it so
(``service.subscribers.play_bots``) queues a bot turn, which runs ``UNO_BOT_DELAY`` seconds after
the commit as a Celery task, or at once in-process without a broker. The task makes one move
(``play_move``) with the version it was declared at, so a bot turn racing a player's action or a
timeout gives one outcome; a bot that declines to act off its turn writes nothing, so nothing is
scheduled again. A bot's turn deadline is the delay plus ``UNO_BOT_GRACE``: a lost task is caught up
by the sweep (and by the lazy path on reads), which plays the bot's move instead of timing it out.

The bot decides from its seat's view and its seat's view of the round's log only
(``engine.bots.play_for``).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Literal

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from games import engine, eventstore
from games.engine.bots import LEVELS, next_move, play_for
from games.models import Game, GameStatus
from players.models import Bot
from unoservice.errors import DomainError

if TYPE_CHECKING:
    from service.unit_of_work import GameWrite

TAKEOVER_LEVEL = "basic"


def check_level(level: Any) -> str:
    if not isinstance(level, str) or level not in LEVELS:
        raise DomainError("invalid", f"A bot level is one of {', '.join(LEVELS)}.")
    return level


def level_of(game: Game, seat: int | None) -> str | None:
    """The level of the bot that plays ``seat``, or None for a person."""
    if seat is None or not 0 <= seat < len(game.roster):
        return None
    level = game.roster[seat].get("bot")
    return level if isinstance(level, str) else None


def seat_to_play(game: Game) -> int | None:
    """The seat a bot must act for now, if any."""
    if game.status != GameStatus.ACTIVE:
        return None
    seat = game.current_seat
    return seat if level_of(game, seat) is not None else None


def may_act(game: Game, state: engine.GameState | None) -> bool:
    """Whether a bot may act in ``game`` now: the seat to act is a bot's, or a bot's seat has
    actions off its turn (say UNO, catch a seat, jump in) in ``state``."""
    if seat_to_play(game) is not None:
        return True
    if state is None or state.status != "active":
        return False
    return any(
        level_of(game, seat) is not None and engine.legal_actions(state, seat)
        for seat in range(state.players)
        if seat != state.actor
    )


def bot_user(level: str, taken: set[int]) -> User:
    """A bot user of ``level`` not among ``taken`` (a game seats a user once): an idle one, or a
    new one."""
    user = User.objects.filter(bot__level=level).exclude(pk__in=taken).order_by("pk").first()
    if user is not None:
        return user
    number = Bot.objects.filter(level=level).count() + 1
    while True:
        try:
            with transaction.atomic():
                user = User(username=f"bot-{level}-{number}", is_active=False)
                user.set_unusable_password()
                user.save()
                Bot.objects.create(user=user, level=level)
                return user
        except IntegrityError:  # the name is taken (a racing creation, or a person)
            number += 1


def roster_entry(user: User, level: str) -> dict[str, Any]:
    return {"id": user.pk, "username": user.get_username(), "bot": level}


def take_over(
    game: Game, state: engine.GameState, seat: int, reason: Literal["timeout", "resign"]
) -> tuple[list[engine.Event], engine.GameState]:
    """``bot_takeover``: a basic bot plays on for ``seat``, from ``state``. The roster's marker
    (saved) and the log's ``seat_taken_over`` (``engine.take_over``, returned with the state
    after it, for the caller to append) go together: a replay and the streams tell the change
    the roster shows."""
    events, after = engine.take_over(state, seat, reason)
    entry = dict(game.roster[seat])
    entry.setdefault("bot", TAKEOVER_LEVEL)
    game.roster = [entry if i == seat else e for i, e in enumerate(game.roster)]
    game.save(update_fields=["roster", "updated_at"])
    return events, after


def _round_log(game: Game) -> list[engine.Event]:
    """The log of the current round (what a bot reads: earlier rounds tell it nothing)."""
    start = eventstore.last_seq_of(game.pk, "round_started")
    return list(eventstore.as_log(eventstore.select_events(game.pk, (start or 1) - 1)))


def _rng(game: Game, seat: int) -> random.Random:
    # Bots' random sources are fixed by the position, never by the game's secret seed.
    return random.Random(f"{game.pk}:{game.version}:{seat}")


def play_turn(write: GameWrite) -> bool:
    """The bot of the seat to act plays its move in ``write`` (the game is locked)."""
    game = write.game
    seat = seat_to_play(game)
    if seat is None:
        return False
    level = level_of(game, seat)
    assert level is not None
    state = write.state
    action = play_for(LEVELS[level], _rng(game, seat), state, seat, _round_log(game))
    if action is None:  # a bot always acts on its turn
        raise ValueError(f"the {level} bot of seat {seat} did not act on its turn")
    events, after = engine.act(state, seat, action, left=write.left())
    write.append(events, after)
    return True


def play_move(write: GameWrite) -> bool:
    """The next bot move of the game in ``write`` (locked), as ``engine.bots.next_move`` picks it:
    a bot off its turn that acts (UNO, a catch, a jump in) first, else the bot of the seat to
    act. False when no bot acts now."""
    game = write.game
    if game.status != GameStatus.ACTIVE:
        return False
    state = write.state
    table = [
        LEVELS[level] if (level := level_of(game, seat)) is not None else None
        for seat in range(state.players)
    ]
    rngs = [_rng(game, seat) for seat in range(state.players)]
    move = next_move(table, rngs, state, _round_log(game))
    if move is None:
        return False
    events, after = engine.act(state, *move, left=write.left())
    write.append(events, after)
    return True
