"""The actions' fast path accepts exactly what the actions' serializers accept, unchanged.

``valid_action`` skips building a DRF serializer when a body plainly fits; these tests hold it to
the serializer's answer over generated bodies: well-formed ones, near misses and nonsense.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.exceptions import ValidationError

from games.engine import CARD_CODES, COLORS
from games.serializers import _ACTION_SHAPES, ACTION_SERIALIZERS, MAX_INT, valid_action

FIELD_NAMES = ["expected_version", "card", "cards", "color", "uno", "target", "seat", "Card"]
CARDS = sorted(CARD_CODES)

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=12),
    st.sampled_from([MAX_INT, MAX_INT + 1, 2**63, -(2**31)]),
    st.floats(allow_nan=False, allow_infinity=False, min_value=-2, max_value=12),
    st.sampled_from([*CARDS[:6], "wild", "wild-draw4", *COLORS, "", "1", "true", "RED", "red-10"]),
)
card_lists = st.lists(st.sampled_from([*CARDS, "red-10", ""]), max_size=4)
json_values = st.one_of(
    json_scalars, card_lists, st.lists(json_scalars, max_size=3), st.just({"card": "red-1"})
)


@st.composite
def action_bodies(draw: st.DrawFn) -> dict[str, Any]:
    body: dict[str, Any] = {"action": draw(st.sampled_from(sorted(ACTION_SERIALIZERS)))}
    for name in draw(st.lists(st.sampled_from(FIELD_NAMES), max_size=4, unique=True)):
        body[name] = draw(json_values)
    return body


def serializer_answer(body: dict[str, Any]) -> dict[str, Any] | None:
    serializer = ACTION_SERIALIZERS[body["action"]](data=body)
    return dict(serializer.validated_data) if serializer.is_valid() else None


def fast_answer(body: dict[str, Any]) -> dict[str, Any] | None:
    try:
        return valid_action(body)
    except ValidationError:
        return None


def test_every_action_has_a_fast_path() -> None:
    assert all(shape is not None for shape in _ACTION_SHAPES.values())


@pytest.mark.parametrize(
    "body",
    [
        {"action": "play", "card": "red-3"},
        {"action": "play", "card": "wild", "color": "blue", "uno": True, "expected_version": 0},
        {"action": "play", "cards": ["red-3", "blue-3"]},
        {"action": "play", "card": "red-7", "target": 9},
        {"action": "draw", "expected_version": MAX_INT},
        {"action": "catch", "target": 0},
        {"action": "color", "color": "green"},
    ],
)
def test_well_formed_bodies_take_the_fast_path(body: dict[str, Any]) -> None:
    shape = _ACTION_SHAPES[body["action"]]
    assert shape is not None and shape.fits(body)
    assert valid_action(body) == serializer_answer(body)


@pytest.mark.parametrize(
    "body",
    [
        {"action": "play", "card": "red-10"},
        {"action": "play", "card": "red-3", "uno": "yes"},
        {"action": "draw", "expected_version": "3"},
        {"action": "draw", "expected_version": True},
        {"action": "draw", "expected_version": -1},
        {"action": "catch"},
        {"action": "catch", "target": 10},
        {"action": "color", "color": "pink"},
        {"action": "play", "cards": []},
        {"action": "draw", "card": "red-3"},
    ],
)
def test_malformed_bodies_get_the_serializers_error(body: dict[str, Any]) -> None:
    with pytest.raises(ValidationError) as refused:
        valid_action(body)
    with pytest.raises(ValidationError) as expected:
        ACTION_SERIALIZERS[body["action"]](data=body).is_valid(raise_exception=True)
    assert refused.value.detail == expected.value.detail


@settings(
    max_examples=3000 if os.environ.get("HYPOTHESIS_PROFILE") == "long" else 600,
    deadline=None,
    derandomize=bool(os.environ.get("CI")),
)
@given(action_bodies())
def test_fast_path_agrees_with_the_serializer(body: dict[str, Any]) -> None:
    assert fast_answer(body) == serializer_answer(body)
