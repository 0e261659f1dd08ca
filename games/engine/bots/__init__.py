"""Bots: players of the engine's own kind, with no Django import.

A bot is a function ``(rng, seen, events) -> action`` from what one seat may see (its view,
``view(state, seat)``, and the event log as ``event_view`` shows it to that seat) to one of
that seat's listed legal actions. Off its turn (when it may say UNO, catch or jump in) it may
answer ``None``: nothing now. On its turn it always acts. ``play_for`` builds both from a full
state and log, so a caller holding the whole game cannot hand a bot a hidden card by mistake.

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
    is_actor,
    listed_actions,
    with_same_number,
)
from games.engine.events import Event
from games.engine.shapes import BOT_LEVELS
from games.engine.state import GameState
from games.engine.views import event_view, legal_actions, view

Bot = Callable[[random.Random, Mapping[str, Any], Sequence[Event]], Action | None]


def _random(
    rng: random.Random, seen: Mapping[str, Any], events: Sequence[Event] = ()
) -> Action | None:
    # From the list alone: a bot level only ever sends a listed action (no multi_play combining).
    # Off its turn it does nothing: it neither catches nor jumps in.
    if not is_actor(seen):
        return None
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
) -> Action | None:
    """``bot``'s action for ``seat``, decided from what that seat may see only (``None``: the
    seat is not the one to act, and acts not)."""
    seen, events = seen_by(state, seat, log)
    return bot(rng, seen, events)


def next_move(
    bots: Sequence[Bot | None],
    rngs: Sequence[random.Random],
    state: GameState,
    log: Sequence[Event],
) -> tuple[int, Action] | None:
    """The next move at a table where ``bots[seat]`` plays ``seat`` (``None``: a person): a bot off
    its turn that acts (UNO, a catch, a jump in; the seats after the actor first), else the
    actor's bot. ``None`` when no bot acts now (a person is to act). Every off-turn move uses up
    something (a card, a catchable seat, an UNO not said), so a table of bots moves on."""
    if state.status != "active":
        return None
    actor = state.actor
    for step in range(1, state.players):
        seat = (actor + step) % state.players
        bot = bots[seat]
        if bot is not None and legal_actions(state, seat):
            action = play_for(bot, rngs[seat], state, seat, log)
            if action is not None:
                return seat, action
    bot = bots[actor]
    if bot is None:
        return None
    action = play_for(bot, rngs[actor], state, actor, log)
    if action is None:
        raise ValueError(f"the bot of seat {actor} did not act on its turn")
    return actor, action


__all__ = [
    "LEVELS",
    "PREFER_PLAY",
    "Action",
    "Bot",
    "Seen",
    "basic",
    "choose",
    "is_actor",
    "listed_actions",
    "next_move",
    "play_for",
    "seen_by",
    "strong",
    "with_same_number",
]
