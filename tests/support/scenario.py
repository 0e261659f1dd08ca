"""Games of the rules engine set up exactly as a page of the rule book, and their checks.

A ``Scenario`` deals given hands (``decks.deck_for``), acts seat by seat and keeps the whole log;
the helpers below read its events. Shared by the official pages (tests/engine/test_official_*)
and the house-rule scenarios (tests/engine/test_house_*).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import partial
from typing import Any, Literal

import pytest

from games.engine import (
    COLORS,
    GameState,
    IllegalMove,
    act,
    decide,
    legal_actions,
    make_options,
    replay,
    resign,
    start_game,
    take_over,
    time_out,
)
from games.engine.cards import POINTS
from games.engine.events import Event
from tests.support.cards import assert_every_card_accounted
from tests.support.decks import deck_for


class Scenario:
    """A game of the rules engine dealt from a given deck: its state and its whole log, acted on
    seat by seat. After every step all 108 cards are still on the table; with ``check_legal``
    (``HouseScenario``), before every action ``legal_actions`` lists exactly what ``decide``
    accepts, for every seat."""

    check_legal = False

    def __init__(
        self,
        hands: Sequence[Sequence[str]],
        starter: str,
        draws: Sequence[str] = (),
        *,
        seed: int = 1,
        target_score: int = 500,
        max_timeouts: int = 3,
        teams: int = 0,
        **rules: Any,
    ) -> None:
        options = make_options(
            rules, target_score=target_score, max_timeouts=max_timeouts, teams=teams
        )
        self.log: list[Event] = start_game(
            len(hands), options, seed, deck=deck_for(hands, starter, draws)
        )
        self.state: GameState = replay(self.log)
        assert_every_card_accounted(self.state)

    def act(self, seat: int, action: str, **fields: Any) -> list[Event]:
        if self.check_legal:
            check_legal_actions(self.state)
        events, self.state = act(self.state, seat, {"action": action, **fields})
        self.log += events
        assert_every_card_accounted(self.state)
        return events

    def refused(self, seat: int, action: str, **fields: Any) -> IllegalMove:
        """Act, expect a refusal, and check that nothing changed and nothing was logged."""
        before, logged = self.state, len(self.log)
        with pytest.raises(IllegalMove) as info:
            self.act(seat, action, **fields)
        assert self.state is before
        assert len(self.log) == logged
        return info.value

    def time_out(self, *, forfeit: bool = True) -> list[Event]:
        events, self.state = time_out(self.state, forfeit=forfeit)
        self.log += events
        assert_every_card_accounted(self.state)
        return events

    def take_over(self, seat: int, reason: Literal["timeout", "resign"]) -> list[Event]:
        events, self.state = take_over(self.state, seat, reason)
        self.log += events
        assert_every_card_accounted(self.state)
        return events

    def resign(self, seat: int) -> list[Event]:
        events, self.state = resign(self.state, seat)
        self.log += events
        assert_every_card_accounted(self.state)
        return events

    def hand(self, seat: int) -> list[str]:
        return list(self.state.hands[seat])

    def draw_and_keep(self, seat: int) -> list[str]:
        """``seat`` draws one card on its turn and keeps it (passing if it could be played)."""
        events = self.act(seat, "draw")
        if self.state.pending is not None and self.state.pending.kind == "play_drawn":
            events += self.act(seat, "pass")
        return drawn(events, seat)

    def set_table(self, **changes: Any) -> None:
        """Lay the table out by hand ("given the draw pile holds one card ..."), cards kept."""
        self.state = self.state.evolve(**changes)
        assert_every_card_accounted(self.state)


def drawn(events: Sequence[Event], seat: int, reason: str | None = None) -> list[str]:
    """The cards ``seat`` drew in ``events`` (only for ``reason``, if given), in order."""
    return [
        card
        for e in events
        if e["type"] == "cards_drawn"
        and e["seat"] == seat
        and (reason is None or e["data"]["reason"] == reason)
        for card in e["data"]["cards"]
    ]


def types(events: Sequence[Event]) -> list[str]:
    return [e["type"] for e in events]


def the(events: Sequence[Event], type_: str) -> Event:
    """The one event of ``type_`` in ``events``."""
    found = [e for e in events if e["type"] == type_]
    assert len(found) == 1, f"expected one {type_} event in {types(events)}"
    return found[0]


def points(cards: Sequence[str]) -> int:
    return sum(POINTS[c] for c in cards)


# Hands that do nothing but sit there: nobody in these scenarios plays them unless told to.
IDLE_1 = ["blue-1", "blue-2", "blue-3", "blue-reverse", "wild", "wild-draw4", "green-7"]
IDLE_2 = ["yellow-1", "yellow-2", "yellow-skip", "yellow-draw2", "green-0", "blue-0", "wild"]


class HouseScenario(Scenario):
    """A ``Scenario`` that checks ``legal_actions`` against ``decide`` before every action."""

    check_legal = True


# --- house-rule checks ---------------------------------------------------------------------


def assert_all_cards(t: Scenario) -> None:
    """All 108 cards are in a hand, the draw pile or the discard pile, and the log replays."""
    state = t.state
    assert_every_card_accounted(state)
    assert replay(t.log) == state
    if state.status == "active":
        check_legal_actions(state)


def plays(state: GameState, seat: int) -> list[dict[str, Any]]:
    return [a for a in legal_actions(state, seat) if a["action"] == "play"]


def actions(state: GameState, seat: int) -> list[str]:
    return [a["action"] for a in legal_actions(state, seat)]


def candidate_actions(state: GameState, seat: int) -> list[dict[str, Any]]:
    """Every single-card action ``seat`` could send, legal or not, in the API's shape."""
    found: list[dict[str, Any]] = []
    for card in dict.fromkeys(state.hands[seat]):
        entries: list[dict[str, Any]] = [{"action": "play", "card": card}]
        if card in ("wild", "wild-draw4"):
            entries = [{**e, "color": color} for e in entries for color in COLORS]
        elif card.endswith("-7") and state.options.seven_zero:
            entries = [{**e, "target": s} for e in entries for s in range(state.players)]
        elif card.endswith("-0") and state.options.zero_swap:
            entries += [{**e, "target": s} for e in entries for s in range(state.players)]
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


# --- the red run: seat 0 plays its seven red cards while the others draw ---------------------

RED_RUN = ["red-1", "red-2", "red-3", "red-4", "red-5", "red-6", "red-7"]
# Twelve cards that go on none of red 1 to 7: seats 1 and 2 draw them in turn and keep them.
UNPLAYABLE = ["yellow-8", "green-8", "blue-8", "yellow-9", "green-9", "blue-9"] * 2


def red_run(
    last: str = "red-7", after: Sequence[str] = (), rounds: int = 6, **options: Any
) -> Scenario:
    """Three seats. Seat 0 holds red 1 to 6 and ``last``; seats 1 and 2 hold IDLE_1 and IDLE_2.
    The starter is a red 9; the draw pile starts with the first ``rounds`` pairs of UNPLAYABLE
    (what seats 1 and 2 draw while seat 0 plays its first ``rounds`` cards), then ``after``."""
    draws = [*UNPLAYABLE[: 2 * rounds], *after]
    return Scenario([[*RED_RUN[:6], last], IDLE_1, IDLE_2], "red-9", draws, **options)


def seat_0_plays(t: Scenario, card: str, **fields: Any) -> list[Event]:
    """Seat 0 plays ``card``; then, unless the round is over, seats 1 and 2 each draw a card that
    does not fit and keep it."""
    events = t.act(0, "play", card=card, **fields)
    if t.state.round_number == 1 and t.state.current == 1:
        for seat in (1, 2):
            assert t.state.current == seat
            events += t.act(seat, "draw")
            assert t.state.pending is None  # the card drawn did not fit: the turn ended
    return events


def red_run_to(t: Scenario, cards_left: int) -> None:
    """Play the red run until seat 0 holds ``cards_left`` cards (the others drawing between)."""
    for card in RED_RUN[: 7 - cards_left]:
        seat_0_plays(t, card)
    assert len(t.hand(0)) == cards_left
