"""Bots: players of the engine's own kind, with no Django import.

A bot is a function ``(rng, seen, events) -> action`` from what one seat may see (its view,
``view(state, seat)``, and the event log as ``event_view`` shows it to that seat) to one of
that seat's listed legal actions. ``play_for`` builds both from a full state and log, so a caller
holding the whole game cannot hand a bot a hidden card by mistake.

Levels: ``random`` (any listed action, leaning to card plays), ``basic`` (a sound heuristic,
``bots.basic``) and ``strong`` (determinised Monte Carlo search, ``bots.strong``). ``choose`` is the
random legal-move chooser of the tests and benchmarks (``bots.random_play``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from games.engine.bots import basic, strong
from games.engine.bots.random_play import (
    PREFER_PLAY,
    Action,
    Seen,
    choose,
    listed_actions,
    with_same_number,
)
from games.engine.events import Event
from games.engine.shapes import BOT_LEVELS
from games.engine.state import GameState
from games.engine.views import event_view, view

Bot = Callable[[random.Random, Mapping[str, Any], Sequence[Event]], Action]


def _random(rng: random.Random, seen: Mapping[str, Any], events: Sequence[Event] = ()) -> Action:
    # From the list alone: a bot level only ever sends a listed action (no multi_play combining).
    return choose(rng, listed_actions(seen))


LEVELS: Final[dict[str, Bot]] = {
    "random": _random,
    "basic": basic.decide,
    "strong": strong.decide,
}
"""Bot level -> its player. The API's ``level`` values are these keys."""
assert tuple(LEVELS) == BOT_LEVELS, "every level of the API has its player"


def seen_by(
    state: GameState, seat: int, log: Sequence[Event]
) -> tuple[dict[str, Any], list[Event]]:
    """What ``seat`` may see of ``state`` and ``log``: its view and its redacted events."""
    seen = view(state, seat, revealed=False)
    seen["settings"] = {"rules": state.options.rules()}
    return seen, [event_view(item, seat, False) for item in log]


def play_for(
    bot: Bot, rng: random.Random, state: GameState, seat: int, log: Sequence[Event]
) -> Action:
    """``bot``'s action for ``seat``, decided from what that seat may see only."""
    seen, events = seen_by(state, seat, log)
    return bot(rng, seen, events)


__all__ = [
    "LEVELS",
    "PREFER_PLAY",
    "Action",
    "Bot",
    "Seen",
    "basic",
    "choose",
    "listed_actions",
    "play_for",
    "seen_by",
    "strong",
    "with_same_number",
]
