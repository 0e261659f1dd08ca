"""The facts of one write, and the reactions to them after commit.

``game_write`` (``service.unit_of_work``) hands its subscribers one ``WriteFacts``: what the write
appended and recorded, and the game as it left it. The subscribers are one explicit list
(``service.subscribers.SUBSCRIBERS``), registered when the application layer is ready
(``service.apps``), so that the unit of work imports none of the reactions (they write through it).
They run after the commit, in the list's order, never for a write that was rolled back; one that
fails is logged and counted (``uno_subscriber_failures_total``), the write stands and the others
still run. A new reaction (a tournament's next round, a challenge's expiry) is a function of
``WriteFacts`` added to that list: it touches neither the unit of work nor this module.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from games import engine
from games.models import Game, GameStatus
from notifications.outbox import Fact, Joined
from unoservice.metrics import record_subscriber_failure

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class WriteFacts:
    """What one write to a game did, read by its subscribers after the commit."""

    game: Game  # the summary as the write left it (version, status, who acts, deadline)
    events: tuple[engine.Event, ...]  # appended to the log, in order (none: it appended none)
    state: engine.GameState | None  # the engine state after them, when the write loaded it
    recorded: tuple[Fact, ...]  # what appends no event: a seat taken, a reminder, an invitation
    outboxed: int  # notifications written with the write that wait for delivery
    bots_due: datetime | None  # a quick match: bots fill its free seats then
    reclocked: bool  # a vacation moved the deadline without an event

    @property
    def appended(self) -> bool:
        return bool(self.events)

    @property
    def turn_changed(self) -> bool:
        return any(event["type"] == "turn_changed" for event in self.events)

    @property
    def seats_taken(self) -> tuple[Joined, ...]:
        return tuple(fact for fact in self.recorded if isinstance(fact, Joined))

    @property
    def finished(self) -> bool:
        """The write ended the game (``game_ended`` appended)."""
        return self.game.status == GameStatus.FINISHED and any(
            event["type"] == "game_ended" for event in self.events
        )

    @property
    def deadline_moved(self) -> bool:
        """The turn's deadline may have moved: events appended, or a vacation re-clocked it."""
        return self.appended or self.reclocked


Subscriber = Callable[[WriteFacts], None]
_subscribers: tuple[Subscriber, ...] | None = None


def register(subscribers: Sequence[Subscriber]) -> None:
    """Set the reactions to every write (``service.apps`` registers ``SUBSCRIBERS``)."""
    global _subscribers
    _subscribers = tuple(subscribers)


def react(facts: WriteFacts) -> None:
    """Run every subscriber on ``facts``, in order (after the write's commit): a failure is
    logged and counted and stops none of the others."""
    if _subscribers is None:
        raise RuntimeError("no subscribers registered: is the 'service' app installed?")
    for subscriber in _subscribers:
        try:
            subscriber(facts)
        except Exception:
            name = getattr(subscriber, "__name__", repr(subscriber))
            log.exception("the reaction %s to a write of game %s failed", name, facts.game.pk)
            record_subscriber_failure(name)
