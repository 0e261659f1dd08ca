"""What a seat may see, checked independently of the service's own visibility function.

Every string in a response that is a card code sits at a JSON path; each path is either public
(the top card, the discard, played cards, the hands shown at the end of a round), the viewer's own
(their hand, their draws, their legal plays, the card they just drew), or forbidden. The checks
below walk whole responses, so a card that turns up anywhere unexpected fails the test.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

from games import engine
from games.engine import CARD_CODES

Path = tuple[str | int, ...]


def leaves(value: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from leaves(item, (*path, index))
    else:
        yield path, value


def card_paths(value: Any) -> Iterator[tuple[tuple[str, ...], str]]:
    """(path with list indexes and hand keys as ``*``, card) of every card code in ``value``."""
    for path, leaf in leaves(value):
        if isinstance(leaf, str) and leaf in CARD_CODES:
            yield tuple("*" if isinstance(p, int) or str(p).isdigit() else p for p in path), leaf


def numbers(value: Any) -> set[int]:
    return {
        leaf for _, leaf in leaves(value) if isinstance(leaf, int) and not isinstance(leaf, bool)
    }


def assert_no_secret(body: Any, state: engine.GameState) -> None:
    """Nothing in ``body`` (a view, an event, a frame, a notification) tells the deck of an
    unfinished game: not its salt, no seed, no event's hash (docs/fairness.md)."""
    text = json.dumps(body)
    assert not state.salt or state.salt not in text, "the salt leaked"
    keys = {str(p) for path, _ in leaves(body) for p in path}
    assert not keys & {"salt", "seed", "hash"}, keys & {"salt", "seed", "hash"}


def assert_view_hides(body: dict[str, Any], state: engine.GameState, seat: int | None) -> None:
    """``body`` (a game view or a replay of an unfinished game) shows ``seat`` nothing hidden."""
    assert state.status == "active"
    assert "revealed" not in body, body["revealed"]
    assert all("hand" not in entry for entry in body["seats"])
    assert state.seed not in numbers(body), "the seed leaked"
    assert_no_secret(body, state)
    rnd = body["round"]
    assert isinstance(rnd["draw_pile"], int) and rnd["draw_pile"] == len(state.draw_pile)
    assert isinstance(rnd["discard_pile"], int)
    assert rnd["top_card"] == state.top_card
    pending = state.pending
    own_hand: list[str] = []
    if seat is None:
        assert body["you"] is None
    else:
        own_hand = list(state.hands[seat])
        assert body["you"]["seat"] == seat
        assert Counter(body["you"]["hand"]) == Counter(own_hand)
    for entry, hand in zip(body["seats"], state.hands, strict=True):
        assert entry["hand_count"] == len(hand)
    last_hands: list[list[str]] = []
    if state.last_round is not None:
        last_hands = [list(h) for h in state.last_round.hands]
    for path, card in card_paths(body):
        if path == ("round", "top_card"):
            continue
        if path == ("round", "pending", "draw_card"):
            continue  # the kind of the last draw card played: public
        if path == ("round", "pending", "card"):
            assert pending is not None and pending.seat == seat, "someone else's drawn card"
            assert card == pending.card
            continue
        if path in (("you", "hand", "*"), ("you", "legal_actions", "*", "card")):
            assert card in own_hand
            continue
        if path == ("you", "legal_actions", "*", "cards", "*"):
            assert card in own_hand
            continue
        if path == ("last_round", "hands", "*", "*"):
            assert any(card in hand for hand in last_hands)
            continue
        raise AssertionError(f"{card} shown to seat {seat} at {path}")


def _dealt(raw: dict[str, Any], seat: int | None) -> list[str] | None:
    seats = raw["data"]["seats"]
    if seat is None or seat not in seats:
        return None
    k = len(seats)
    return raw["data"]["deck"][seats.index(seat) : 7 * k : k]


# The paths of event data that may hold cards, by event type: "public", or a function of the raw
# event and the viewer saying whether the viewer may see them.
def _own_draw(raw: dict[str, Any], seat: int | None) -> bool:
    return seat is not None and raw["seat"] == seat


def _challenge_parties(raw: dict[str, Any], seat: int | None) -> bool:
    """The seat of the event and its ``target``: a challenge's two seats, a gift's two seats."""
    return seat is not None and seat in (raw["seat"], raw["data"]["target"])


def _own_pending(raw: dict[str, Any], seat: int | None) -> bool:
    pending = raw["data"]["pending"]
    return seat is not None and pending is not None and pending["seat"] == seat


def _own_deal(raw: dict[str, Any], seat: int | None) -> bool:
    return _dealt(raw, seat) is not None


EVENT_CARD_PATHS: dict[str, dict[tuple[str, ...], Any]] = {
    "round_started": {("hand", "*"): _own_deal},
    "starter_returned": {("card",): "public"},
    "starter_turned": {("card",): "public"},
    "turn_changed": {("pending", "draw_card"): "public", ("pending", "card"): _own_pending},
    "card_played": {("cards", "*"): "public"},
    "cards_drawn": {("cards", "*"): _own_draw},
    "challenged": {("hand", "*"): _challenge_parties},
    "color_discarded": {("cards", "*"): "public"},  # face up onto the discard pile
    "cards_given": {("cards", "*"): _challenge_parties},  # the giver and the receiver
    "round_ended": {("hands", "*", "*"): "public"},
}


def assert_event_hides(shown: dict[str, Any], raw: dict[str, Any], seat: int | None) -> None:
    """An event of an unfinished game, as served to ``seat``, hides what ``seat`` may not see."""
    kind = raw["type"]
    assert (shown["type"], shown["seat"]) == (kind, raw["seat"])
    data = shown["data"]
    allowed = EVENT_CARD_PATHS.get(kind, {})
    for path, card in card_paths(data):
        rule = allowed.get(path)
        assert rule is not None, f"{card} shown to seat {seat} at {kind}.{path}"
        if rule != "public":
            assert rule(raw, seat), f"{card} shown to seat {seat} at {kind}.{path}"
    assert "hash" not in shown, "an event's hash would tell its hidden cards"
    if kind == "game_started":
        assert "seed" not in data and "salt" not in data
    elif kind == "round_started":
        assert "deck" not in data
        assert data.get("hand") == _dealt(raw, seat)
    elif kind == "starter_returned":
        assert data == {"card": raw["data"]["card"]}, "the position in the pile leaked"
    elif kind == "cards_drawn":
        assert data["count"] == len(raw["data"]["cards"])
        if _own_draw(raw, seat):
            assert data["cards"] == raw["data"]["cards"]
        else:
            assert "cards" not in data
    elif kind in ("pile_reshuffled", "forfeited"):
        assert data["draw_pile_count"] == len(raw["data"]["draw_pile"])
        assert "draw_pile" not in data
    elif kind == "challenged" and _challenge_parties(raw, seat):
        assert data["hand"] == raw["data"]["hand"]
    # Whatever is shown is true.
    for leaf_path, value in leaves(data):
        original: Any = raw["data"]
        try:
            for key in leaf_path:
                original = original[key]
        except (KeyError, IndexError, TypeError):
            continue  # a count or a dealt hand the service derived
        if not isinstance(original, list | dict):
            assert value == original, (kind, leaf_path)


def assert_view_is_engine_view(
    body: dict[str, Any], state: engine.GameState, seat: int | None, revealed: bool | None = None
) -> None:
    """``body`` shows exactly what the engine's ``view`` gives ``seat`` (plus the decorations)."""
    expected = engine.view(state, seat, revealed)
    expected.pop("status")
    got = {key: body[key] for key in expected if key in body}
    got["seats"] = [{k: v for k, v in e.items() if k != "player"} for e in body["seats"]]
    if got.get("round") is not None:
        got["round"] = {k: v for k, v in got["round"].items() if k != "turn_deadline"}
    assert got == expected
    assert set(body) - set(expected) <= {
        "id",
        "status",
        "version",
        "settings",
        "created_by",
        "created_at",
        "deck_commitment",  # and once finished, what it commits to:
        "seed",
        "salt",
    }
