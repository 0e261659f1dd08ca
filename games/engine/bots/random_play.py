"""A random player: one legal action for a seat, chosen from what that seat may see.

The one bot of the tests and the benchmarks. It reads either the seat's view (the engine's
``view(state, seat)`` or the service's game view: ``you.legal_actions``, ``you.hand`` and, in the
service's view, ``settings.rules``) or the ``legal_actions(state, seat)`` list itself, so it never
knows more than that seat does. No Django import: the engine benchmark runs it in its timed loop.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

Action = dict[str, Any]
# What one seat may see: its view, or just the actions listed for it.
Seen = Mapping[str, Any] | Sequence[Action]

# How often a card play is chosen when one is listed: games end sooner than under uniform play,
# and hands keep the size they have in real games.
PREFER_PLAY = 0.8


def listed_actions(seen: Seen) -> Sequence[Action]:
    """The legal actions listed in ``seen`` (a view's ``you.legal_actions``, or the list)."""
    if isinstance(seen, Mapping):
        you = seen.get("you")
        return you["legal_actions"] if you else []
    return seen


def is_actor(view: Mapping[str, Any]) -> bool:
    """Whether the seat that sees ``view`` is the seat whose move the game waits for (off its
    turn it may have actions still: say UNO, catch, jump in)."""
    you = view.get("you")
    if not you:
        return False
    rnd = view["round"]
    pending = rnd["pending"]
    actor = pending["seat"] if pending is not None else rnd["current_seat"]
    return bool(actor == you["seat"])


def choose(rng: random.Random, seen: Seen, *, prefer_play: float = PREFER_PLAY) -> Action:
    """A legal action for the seat that sees ``seen``: a card play with probability
    ``prefer_play`` when one is listed, otherwise any listed action, uniformly.

    ``prefer_play`` of 1 always plays when it can and 0 is uniform; neither draws a number from
    ``rng`` for the choice, so a seeded game plays the same moves as it did before this bot.
    Under ``multi_play`` (read from a service view's rules) a play may be extended with the other
    cards of its number in the hand (``with_same_number``); every other choice is a listed action.
    """
    legal = listed_actions(seen)
    if not legal:
        raise ValueError("the seat has no legal action now")
    plays = [a for a in legal if a["action"] == "play"]
    if plays and prefer_play > 0 and (prefer_play >= 1 or rng.random() < prefer_play):
        action = rng.choice(plays)
        if isinstance(seen, Mapping) and _multi_play(seen):
            action = with_same_number(rng, seen, action)
        return action
    return rng.choice(legal)


def _multi_play(view: Mapping[str, Any]) -> bool:
    settings = view.get("settings") or {}
    return bool((settings.get("rules") or {}).get("multi_play"))


def with_same_number(rng: random.Random, view: Mapping[str, Any], action: Action) -> Action:
    """Half the time, play every card of the hand with the number of ``action``'s card with it
    (``multi_play``: ``legal_actions`` lists single cards, and any such combination is legal)."""
    card = action.get("card")
    rank = card.rsplit("-", 1)[-1] if card else ""
    pending = view["round"]["pending"]
    if card is None or "uno" in action or not rank.isdigit() or pending is not None:
        return action
    hand: list[str] = view["you"]["hand"]
    more = list(hand)
    more.remove(card)
    same = [c for c in more if c.rsplit("-", 1)[-1] == rank]
    if not same or rng.random() < 0.5:
        return action
    cards = [card, *same]
    combined: Action = {k: v for k, v in action.items() if k != "card"}
    combined["cards"] = cards
    if len(hand) - len(cards) == 1:
        combined["uno"] = True
    return combined
