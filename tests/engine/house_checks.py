"""Small checks shared by the house-rule scenarios (tests/engine/test_house_*.py)."""

from __future__ import annotations

import json
from collections import Counter
from functools import partial
from typing import Any

import pytest

from games.engine import COLORS, DECK, GameState, IllegalMove, decide, legal_actions, replay
from games.engine.events import Event
from tests.engine.decks import Table


def assert_all_cards(t: Table) -> None:
    """All 108 cards are in a hand, the draw pile or the discard pile, and the log replays."""
    state = t.state
    cards: Counter[str] = Counter(state.draw_pile) + Counter(state.discard_pile)
    for hand in state.hands:
        cards += Counter(hand)
    assert cards == Counter(DECK)
    assert replay(t.log) == state
    if state.status == "active":
        check_legal_actions(state)


def refused(t: Table, seat: int, action: str, **fields: Any) -> IllegalMove:
    """The action is refused, and a refused action changes nothing."""
    before, log_size = t.state, len(t.log)
    with pytest.raises(IllegalMove) as info:
        t.act(seat, action, **fields)
    assert t.state is before and len(t.log) == log_size
    return info.value


def hand(t: Table, seat: int) -> list[str]:
    return list(t.state.hands[seat])


def plays(state: GameState, seat: int) -> list[dict[str, Any]]:
    return [a for a in legal_actions(state, seat) if a["action"] == "play"]


def actions(state: GameState, seat: int) -> list[str]:
    return [a["action"] for a in legal_actions(state, seat)]


def drawn(events: list[dict[str, Any]], seat: int) -> list[str]:
    """The cards ``seat`` drew in ``events``."""
    return [
        card
        for e in events
        if e["type"] == "cards_drawn" and e["seat"] == seat
        for card in e["data"]["cards"]
    ]


def candidate_actions(state: GameState, seat: int) -> list[dict[str, Any]]:
    """Every single-card action ``seat`` could send, legal or not, in the API's shape."""
    found: list[dict[str, Any]] = []
    for card in dict.fromkeys(state.hands[seat]):
        entries: list[dict[str, Any]] = [{"action": "play", "card": card}]
        if card in ("wild", "wild-draw4"):
            entries = [{**e, "color": color} for e in entries for color in COLORS]
        elif card.endswith("-7") and state.options.seven_zero:
            entries = [{**e, "target": s} for e in entries for s in range(state.players)]
        found += entries + [{**e, "uno": True} for e in entries]
    found += [{"action": name} for name in ("draw", "pass", "challenge", "accept", "uno")]
    found += [{"action": "color", "color": color} for color in COLORS]
    found += [{"action": "catch", "target": s} for s in range(state.players)]
    return found


def check_legal_actions(state: GameState) -> None:
    """``legal_actions`` lists exactly the candidate actions ``decide`` accepts, for every seat."""
    for seat in range(state.players):
        listed = legal_actions(state, seat)
        for action in listed:
            decide(state, seat, action)  # raises if a listed action is refused
        accepted = []
        for action in candidate_actions(state, seat):
            try:
                decide(state, seat, action)
            except IllegalMove:
                continue
            accepted.append(action)
        key = partial(json.dumps, sort_keys=True)
        assert sorted(map(key, accepted)) == sorted(map(key, listed)), f"seat {seat}"


class HouseTable(Table):
    """A ``Table`` that checks ``legal_actions`` against ``decide`` before every action."""

    def act(self, seat: int, action: str, **fields: Any) -> list[Event]:
        check_legal_actions(self.state)
        return super().act(seat, action, **fields)
