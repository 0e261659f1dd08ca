"""The unit of work of every write to a game: ``with game_write(game_id) as write:``.

Entering locks the game row and applies the timeouts that are overdue. ``write.append(events,
after)`` appends events to the log and brings the projections up to the state ``after``.
Leaving writes the notification rows of the facts it recorded, commits, and hands the write's
facts (``service.facts.WriteFacts``) to the subscribers after the commit (``service.subscribers``),
never before and never for a write that was rolled back.

Overdue timeouts stand whatever becomes of the write that found them: when some were applied,
the write's own work runs in a savepoint, and a refusal rolls back only that work.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from functools import partial

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games import checkpoints, engine, eventstore, timekeeping
from games.engine.limits import MAX_CATCH_UP
from games.models import Game, GameStatus
from games.projections import blank, changes, project_summary, projection_of
from games.selectors import require_visible, seat_of
from notifications import outbox
from service import bots, ratings
from service.away import away_of
from service.facts import WriteFacts, react
from unoservice.errors import DomainError
from unoservice.metrics import record_events


class GameWrite:
    """A locked game and what this write appended to it."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.appended: list[engine.Event] = []
        self.facts: list[outbox.Fact] = []
        self._facts_written = 0  # of ``facts``: their notification rows are written
        self.outboxed = 0  # notifications written with the events that wait for delivery
        self.bots_due: datetime | None = None  # quick match: bots fill the free seats then
        self.reclocked = False  # the deadline moved without an event (a vacation)
        self._state: engine.GameState | None = None
        self._vacations: dict[int, list[timekeeping.Pause]] | None = None

    @property
    def state(self) -> engine.GameState:
        """The engine state after the game's last event (``game_not_active`` before the start)."""
        if self._state is None:
            self._state = eventstore.load_state(self.game)
        return self._state

    @property
    def loaded_state(self) -> engine.GameState | None:
        """The engine state after the game's last event if this write has it (no query)."""
        return self._state

    def append(self, events: Sequence[engine.Event], after: engine.GameState) -> None:
        """Append ``events`` (which lead to ``after``) and bring the projections up to it.

        A change of who must act starts the clock of the seat to act now and sets its deadline
        (``timekeeping``). Now, not at the deadline a late timeout acted on: the seat is told of
        its turn now. After a lost task or an outage the next seat's clock had started at the
        missed deadline, so it timed out at once, never told of its turn, and a long outage
        forfeited seat after seat.
        """
        # A fact recorded before these events came first (the join that fills a game, then its
        # start): its notifications are written first, so the inbox lists them in that order.
        self._write_recorded()
        game = self.game
        first = self._state is not None or game.state is not None
        current = projection_of(self.state) if first else blank(after.players)
        base, now = game.version, timezone.now()
        before = outbox.Turn.of(game)
        game.version = base + len(events)
        record_events(game_id=game.pk, version=game.version, events=events)
        project_summary(game, after, now)
        if after.status == "active" and any(e["type"] == "turn_changed" for e in events):
            bot = bots.seat_to_play(game) is not None
            self._set_clock(after, now, bot)
        notices = outbox.statements_with(game, before, now, outbox.told_otherwise(self.facts))
        changed = changes(current, projection_of(after))
        returned = eventstore.save(game, base + 1, events, changed, now, notices.statements)
        checkpoints.keep(game, base, after)
        if after.status == "finished" and any(e["type"] == "game_ended" for e in events):
            ratings.game_ended(game, after)  # in this transaction: with the result or not at all
        self._state = after
        self.appended.extend(events)
        self.outboxed += notices.waiting(returned)

    def record(self, fact: outbox.Fact) -> None:
        """Note a fact of this write that appends no event (a seat taken, a turn's reminder):
        its notifications are written before the write commits (``finish``)."""
        self.facts.append(fact)

    def finish(self) -> WriteFacts:
        """Write the notification rows of the recorded facts (in the write's transaction: they
        commit with it or not at all) and return the write's facts for its subscribers."""
        self._write_recorded()
        return WriteFacts(
            game=self.game,
            events=tuple(self.appended),
            state=self._state,
            recorded=tuple(self.facts),
            outboxed=self.outboxed,
            bots_due=self.bots_due,
            reclocked=self.reclocked,
        )

    def drop_facts(self) -> None:
        """Forget the recorded facts (a body refused: its rows, written or not, are rolled back)."""
        self.facts.clear()
        self._facts_written = 0

    def _write_recorded(self) -> None:
        unwritten = self.facts[self._facts_written :]
        if unwritten:
            told = outbox.told_otherwise(self.facts)
            self.outboxed += outbox.write_facts(self.game, unwritten, timezone.now(), told)
            self._facts_written = len(self.facts)

    # --- the clock: deadlines, and a late seat's turn played by the server ----------------------

    def _vacations_since(self, since: datetime) -> dict[int, list[timekeeping.Pause]]:
        # The game keeps its players' vacations on its row (``Game.away``), read again from
        # their table only when it starts or a player's vacation changes: those that end after
        # the clock started (a catch-up's clocks start later and later).
        if self._vacations is None:
            game = self.game
            if game.away is None:
                game.away = away_of([entry["id"] for entry in game.roster], since)
            self._vacations = timekeeping.pauses_in(game.away)
        return self._vacations

    def turn(self) -> timekeeping.Turn | None:
        """The clock of the seat that must act, or None when no clock runs."""
        game = self.game
        started = game.turn_started_at
        if game.status != GameStatus.ACTIVE or started is None:
            return None
        bot = bots.seat_to_play(game) is not None
        return timekeeping.turn_of(game, self.state, started, self._vacations_since(started), bot)

    def _set_clock(self, state: engine.GameState, started: datetime, bot: bool) -> None:
        game = self.game
        game.turn_started_at = started
        turn = timekeeping.turn_of(game, state, started, self._vacations_since(started), bot)
        game.turn_deadline, game.remind_at = turn.deadline, turn.reminder

    def left(self) -> int | None:
        """With a bank clock, the seconds left now in the bank of the seat that must act."""
        if not self.state.banks:
            return None
        turn = self.turn()
        return None if turn is None else turn.left(timezone.now())

    def reclock(self) -> bool:
        """Read the players' vacations again and set the deadline again from the clock's start,
        after a vacation started or ended; True when it moved (its task is queued again)."""
        game = self.game
        if game.state is None:
            return False
        game.away, self._vacations = None, None
        turn = self.turn()
        moved = turn is not None and (turn.deadline, turn.reminder) != (
            game.turn_deadline,
            game.remind_at,
        )
        if turn is not None and moved:
            game.turn_deadline, game.remind_at = turn.deadline, turn.reminder
        if game.away is None:  # no clock ran to read them: the next one will
            game.save(update_fields=["away", "updated_at"])
        else:
            game.save(update_fields=["away", "turn_deadline", "remind_at", "updated_at"])
        self.reclocked = moved
        return moved

    def time_out(self) -> bool:
        """Act for the seat whose deadline has passed; False when it has not (or no game runs)."""
        if not is_overdue(self.game):  # (an overdue game has a deadline)
            return False
        if bots.seat_to_play(self.game) is not None:  # a bot whose turn was lost: it plays now
            return bots.play_turn(self)
        actor = self.state.actor
        takeover = (
            self.game.bot_takeover
            and self.state.timeouts[actor] + 1 >= self.state.options.max_timeouts
        )
        # The last timeout with bot_takeover is one of its own too (the log had none: the bot
        # played the seat's move at once); the bot plays on from the seat's next turn.
        events, after = engine.time_out(self.state, forfeit=not takeover)
        if takeover and after.status == "active":  # instead of the forfeit
            more, after = bots.take_over(self.game, after, actor, "timeout")
            events = [*events, *more]
        self.append(events, after)
        return True

    def catch_up(self) -> int:
        """Apply every overdue timeout, in order; return how many. A timeout starts the next
        seat's turn now (``append``), so another follows only where one is due at once (a bot's
        turn whose task was lost)."""
        count = 0
        while count < MAX_CATCH_UP and self.time_out():
            count += 1
        return count


def is_overdue(game: Game) -> bool:
    return (
        game.status == GameStatus.ACTIVE
        and game.turn_deadline is not None
        and game.turn_deadline <= timezone.now()
    )


@contextmanager
def game_write(
    game_id: str | uuid.UUID, *, catch_up: bool = True, viewer: User | None = None
) -> Iterator[GameWrite]:
    """Lock ``game_id``, catch up its overdue timeouts (unless ``catch_up`` is False), run the
    body, write the notification rows of its recorded facts, commit, then hand the write's facts
    to the subscribers (``service.facts``). A write on behalf of ``viewer`` (a
    player's request) finds no game they may not see (``selectors.may_see``)."""
    refusal: Exception | None = None
    with transaction.atomic():
        write = GameWrite(eventstore.lock_game(game_id))
        if viewer is not None:
            require_visible(write.game, viewer)
        if catch_up and write.catch_up():
            caught, outboxed = len(write.appended), write.outboxed
            try:
                with transaction.atomic():
                    yield write
            except (DomainError, engine.IllegalMove) as refused:
                refusal = _said_late(refused, write, viewer)
                del write.appended[caught:]
                write.drop_facts()  # every fact is the body's: the timeouts record none
                write.bots_due = None
                write.outboxed = outboxed
        else:
            yield write
        transaction.on_commit(partial(react, write.finish()))
    if refusal is not None:
        raise refusal


def _said_late(refused: Exception, write: GameWrite, viewer: User | None) -> Exception:
    """A move refused once the server had moved for its player, their time run out just before
    (``not_your_turn``, ``nothing_to_choose``, ...), says so: the refusal alone did not tell why."""
    seat = None if viewer is None else seat_of(write.game, viewer)
    timed_out = {e["seat"] for e in write.appended if e["type"] == "timed_out"}
    if seat is None or seat not in timed_out:
        return refused
    late = "Your time ran out: the server moved for you first."
    if isinstance(refused, engine.IllegalMove):
        return engine.IllegalMove(refused.code, f"{late} {refused.detail}")
    if isinstance(refused, DomainError):
        return DomainError(refused.code, f"{late} {refused.detail}", refused.extra, refused.headers)
    return refused
