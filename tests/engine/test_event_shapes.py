"""Every event the engine builds is of its type's shape (``shapes.EVENT_DATA``).

mypy checks each emission against the overload of ``rules.Turn.emit`` for its type; these tests
hold those overloads to the definitions, and the events the engine writes to both.
"""

from __future__ import annotations

import random
from types import NoneType
from typing import Any, get_args, get_overloads, get_type_hints

from games import engine
from games.engine.events import Event
from games.engine.rules import Turn
from games.engine.shapes import EVENT_DATA, CountOf, DealtHand, fields_of


def _overloads() -> dict[str, tuple[type, Any]]:
    """Event type -> (the shape its overload of ``Turn.emit`` names, its seat's type)."""
    found: dict[str, tuple[type, Any]] = {}
    for overload in get_overloads(Turn.emit):
        hints = get_type_hints(overload)
        (type_,) = get_args(hints["type_"])
        assert type_ not in found, f"two overloads for {type_}"
        found[type_] = (hints["data"], hints["seat"])
    return found


EMITTED = _overloads()


def test_turn_emit_has_one_overload_per_event_type_naming_its_shape() -> None:
    assert list(EMITTED) == list(EVENT_DATA)
    for type_, (shape, seat) in EMITTED.items():
        assert shape is EVENT_DATA[type_], type_
        assert seat in (int, NoneType), type_


def _in_the_log(shape: type) -> tuple[set[str], set[str]]:
    """The fields a stored event of ``shape`` may hold, and those it must hold: the view-only
    fields (``CountOf``, ``DealtHand``) are never in the log."""
    stored = [
        f for f in fields_of(shape) if f.marker(CountOf) is None and f.marker(DealtHand) is None
    ]
    return {f.name for f in stored}, {f.name for f in stored if f.required}


LOG_FIELDS = {type_: _in_the_log(shape) for type_, shape in EVENT_DATA.items()}


def shape_problem(event: Event) -> str | None:
    """What makes ``event`` (as the engine wrote it) differ from its type's shape, or None."""
    type_ = event["type"]
    if type_ not in EVENT_DATA:
        return f"unknown type {type_!r}"
    allowed, required = LOG_FIELDS[type_]
    keys = set(event["data"])
    if keys - allowed or required - keys:
        return f"{type_}: unknown {sorted(keys - allowed)}, missing {sorted(required - keys)}"
    seat_type = EMITTED[type_][1]
    if (event["seat"] is None) != (seat_type is NoneType):
        return f"{type_}: seat {event['seat']!r}, declared {seat_type.__name__}"
    return None


def test_the_events_of_random_games_are_of_their_shapes() -> None:
    seen: set[str] = set()
    rules: list[dict[str, Any]] = [
        {},
        {"stacking": True, "jump_in": True, "seven_zero": True, "draw_until_playable": True},
        {"two_gives": True, "zero_discards_color": True, "elimination": True, "color_runs": True},
        {"one_rotates": True, "uno_auto_penalty": True, "eight_again": True},
    ]
    for seed in range(16):
        options = engine.make_options(rules[seed % len(rules)], target_score=150, max_timeouts=2)
        log = engine.start_game(4, options, seed, salt="ab" * 32 if seed % 2 else "")
        state = engine.replay(log)
        rng = random.Random(seed)
        while state.status == "active":
            roll = rng.random()
            if roll < 0.03:
                new, state = engine.time_out(state)
            elif roll < 0.032:
                new, state = engine.resign(state, state.actor)
            else:
                listed = engine.legal_actions(state, state.actor)
                new, state = engine.act(state, state.actor, rng.choice(listed))
            log += new
        for event in log:
            assert shape_problem(event) is None, shape_problem(event)
            seen.add(event["type"])
    assert len(seen) >= 18, set(EVENT_DATA) - seen
