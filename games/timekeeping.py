"""The one reckoning of a turn's deadline, used by every path that sets or reads one.

A turn's clock starts when the seat must act (``Game.turn_started_at``) and runs for the seat's
allowance: ``turn_timeout`` with the move clock, the seat's bank (as of its last move, in the
engine state) with the bank clock. It stands still while the seat's player is on vacation, in
games that pause (a bank clock, or a move clock of ``limits.PAUSED_FROM`` seconds or more; live
games do not). ``deadline`` and ``reminder`` say when the allowance (or ``REMIND_AT`` of it)
runs out; ``left`` how much of it is left at a moment. The write path sets the deadline when the
turn changes and when a vacation starts or ends; the deadline's task, the beat sweep and the lazy
path on reads all act on that deadline (``unit_of_work.is_overdue``), so they count banks and
vacations alike. Times come from here into the engine (``left``), never from a clock there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings

from games.engine.limits import PAUSED_FROM
from games.models import sees_its_seat

if TYPE_CHECKING:
    from games import engine
    from games.models import Game

# The share of a turn's time after which the seat is reminded (``deadline_soon``).
REMIND_AT = 0.8

Pause = tuple[datetime, datetime]  # a stretch of time the clock stands still: [start, end)


def runs_out(start: datetime, seconds: float, pauses: Sequence[Pause]) -> datetime:
    """When a clock started at ``start`` with ``seconds`` to run runs out, standing still in
    ``pauses`` (sorted, not overlapping)."""
    at, rest = start, timedelta(seconds=seconds)
    for begin, end in pauses:
        if end <= at:
            continue
        if at + rest <= begin:
            break
        rest -= max(begin - at, timedelta(0))
        at = end
    return at + rest


def ran(start: datetime, until: datetime, pauses: Sequence[Pause]) -> float:
    """The seconds a clock started at ``start`` ran until ``until``, standing still in
    ``pauses``."""
    total = max(until - start, timedelta(0))
    for begin, end in pauses:
        overlap = min(end, until) - max(begin, start)
        if overlap > timedelta(0):
            total -= overlap
    return total.total_seconds()


def is_live(game: Game) -> bool:
    """Live play: a turn lasts less than ``PAUSED_FROM`` (an hour), on the move clock or at most
    in a full bank. Its players are at the table, not away for days (correspondence)."""
    bank = game.bank()
    return (bank[2] if bank is not None else game.turn_timeout) < PAUSED_FROM


def pauses(game: Game) -> bool:
    """Whether a vacation stops the game's clocks: live play (a short move clock) goes on."""
    return game.clock is not None or game.turn_timeout >= PAUSED_FROM


Away = dict[str, list[list[str]]]  # ``Game.away``: player id -> [[start, end], ...] in ISO


def pauses_in(away: Away) -> dict[int, list[Pause]]:
    return {
        int(player_id): [(datetime.fromisoformat(b), datetime.fromisoformat(e)) for b, e in spans]
        for player_id, spans in away.items()
    }


@dataclass(frozen=True)
class Turn:
    """The clock of the seat that must act: when it started, its allowance, its pauses."""

    started: datetime
    allowance: int
    paused: tuple[Pause, ...]
    bot: bool = False

    @property
    def deadline(self) -> datetime:
        if self.bot:
            grace = settings.UNO_BOT_DELAY + settings.UNO_BOT_GRACE
            return self.started + timedelta(seconds=grace)
        return runs_out(self.started, self.allowance, self.paused)

    @property
    def reminder(self) -> datetime | None:
        """When the seat is reminded: after ``REMIND_AT`` of its time (a bot is not)."""
        if self.bot:
            return None
        return runs_out(self.started, self.allowance * REMIND_AT, self.paused)

    def left(self, now: datetime) -> int:
        """The whole seconds of the allowance left at ``now``."""
        return max(0, round(self.allowance - ran(self.started, now, self.paused)))


def turn_of(
    game: Game,
    state: engine.GameState,
    started: datetime,
    vacations: dict[int, list[Pause]],
    bot: bool,
) -> Turn:
    """The clock of the seat that must act in ``state`` (the one function every deadline comes
    from): ``vacations`` by player id (``vacations_of``)."""
    seat = state.actor
    allowance = state.banks[seat] if state.banks else game.turn_timeout
    paused: tuple[Pause, ...] = ()
    if not bot and pauses(game) and seat < len(game.roster):
        paused = tuple(vacations.get(game.roster[seat]["id"], ()))
    return Turn(started, allowance, paused, bot)


def on_vacation(game: Game, now: datetime) -> dict[int, datetime]:
    """The seats of ``game`` whose player is on vacation at ``now``: seat -> its end, from the
    vacations the game keeps (``Game.away``; the application layer reads them into a game that
    has none yet, ``service.away``). Not a seat a bot plays (one that took it over when its
    player left it: the bot's clock runs, whatever its player does)."""
    seats = {
        entry["id"]: number for number, entry in enumerate(game.roster) if sees_its_seat(entry)
    }
    away = game.away or {}
    return {
        seats[player_id]: end
        for player_id, spans in pauses_in(away).items()
        if player_id in seats
        for begin, end in spans
        if begin <= now < end
    }
