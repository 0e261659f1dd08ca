"""What a seat may see: ``view(state, seat)``, ``legal_actions(state, seat)`` and ``event_view``.

This module is the one place that decides visibility. A seat sees its own hand, the other hands
as counts, the public piles as counts and the top card; a seat of ``None`` is a spectator and sees
no hand. A finished game reveals everything: every hand, the draw pile and the seed.
"""

from __future__ import annotations

from typing import Any

from games.engine.cards import COLOR_OF, COLORS, RANK_OF, WILD, WILD_DRAW4, WILDS
from games.engine.events import Event
from games.engine.evolve import pending_to_data
from games.engine.rules import _finishes_on_action, can_stack, may_jump_in
from games.engine.state import GameState, Pending

Action = dict[str, Any]


def _play_entries(state: GameState, seat: int, card: str) -> list[Action]:
    """Every complete play of ``card`` by ``seat``: a wild once per colour, a 7 once per target."""
    hand_size = len(state.hands[seat])
    if _finishes_on_action(state.options, hand_size, (card,)):
        return []
    entries: list[Action] = [{"action": "play", "card": card}]
    if card in (WILD, WILD_DRAW4):
        entries = [{**entry, "color": color} for entry in entries for color in COLORS]
    elif state.options.seven_zero and card.endswith("-7"):
        targets = [s for s in range(state.players) if s != seat and state.statuses[s] == "playing"]
        entries = [{**entry, "target": target} for entry in entries for target in targets]
    if hand_size == 2:
        entries += [{**entry, "uno": True} for entry in entries]
    return entries


def legal_actions(state: GameState, seat: int | None) -> list[Action]:
    """Every action ``decide`` accepts from ``seat`` now, in the API's action shape.

    With ``multi_play`` only single-card plays are listed; any legal combination may be sent.
    """
    if (
        seat is None
        or state.status != "active"
        or not 0 <= seat < state.players
        or state.statuses[seat] != "playing"
        or not state.discard_pile  # mid-deal (a replay just after round_started): no turn yet
    ):
        return []
    actions: list[Action] = []
    hand = state.hands[seat]
    pending = state.pending
    if seat == state.current:
        if pending is None:
            top, color = state.discard_pile[-1], state.color
            top_rank = RANK_OF[top]
            for card in dict.fromkeys(hand):
                # matches(), inlined: this loop runs for every view and every bot move
                if COLOR_OF[card] == color or RANK_OF[card] == top_rank or card in WILDS:
                    actions += _play_entries(state, seat, card)
            actions.append({"action": "draw"})
        elif pending.kind == "color":
            actions += [{"action": "color", "color": color} for color in COLORS]
        elif pending.kind == "play_drawn":
            assert pending.card is not None
            actions += _play_entries(state, seat, pending.card)
            if not state.options.force_play:
                actions.append({"action": "pass"})
        else:
            if pending.kind == "wild_draw4":
                actions += [{"action": "challenge"}, {"action": "accept"}]
            else:
                actions.append({"action": "draw"})
            for card in dict.fromkeys(hand):
                if can_stack(state, card):
                    actions += _play_entries(state, seat, card)
    elif may_jump_in(state, seat):
        top = state.discard_pile[-1]
        actions += _play_entries(state, seat, top)
    if len(hand) == 1 and seat not in state.uno:
        actions.append({"action": "uno"})
    for target in sorted(state.catchable):
        if target != seat:
            actions.append({"action": "catch", "target": target})
    return actions


def pending_view(pending: Pending | None, viewer: int | None, revealed: bool) -> Action | None:
    """The pending decision as ``viewer`` may see it: a drawn card only to the seat that drew it."""
    data = pending_to_data(pending)
    if data is not None and "card" in data and not (revealed or viewer == data["seat"]):
        del data["card"]
    return data


def view(state: GameState, seat: int | None, revealed: bool | None = None) -> dict[str, Any]:
    """The game as ``seat`` may see it (``None``: a spectator).

    ``revealed`` shows every card; by default a finished game is revealed and no other.
    """
    if revealed is None:
        revealed = state.status == "finished"
    seats = []
    for s in range(state.players):
        entry: dict[str, Any] = {
            "seat": s,
            "hand_count": len(state.hands[s]),
            "score": state.scores[s],
            "uno": s in state.uno,
            "catchable": s in state.catchable,
            "status": state.statuses[s],
            "timeouts": state.timeouts[s],
        }
        if revealed:
            entry["hand"] = list(state.hands[s])
        seats.append(entry)
    result: dict[str, Any] = {
        "status": state.status,
        "seats": seats,
        "round": {
            "number": state.round_number,
            "dealer": state.dealer,
            "current_seat": state.current,
            "direction": state.direction,
            "top_card": state.top_card,
            "color": state.color,
            "draw_pile": len(state.draw_pile),
            "discard_pile": len(state.discard_pile),
            "pending": pending_view(state.pending, seat, revealed),
        },
        "you": None,
        "last_round": None,
        "winner_seat": state.winner,
    }
    if seat is not None and 0 <= seat < state.players:
        result["you"] = {
            "seat": seat,
            "hand": list(state.hands[seat]),
            "legal_actions": legal_actions(state, seat),
        }
    last = state.last_round
    if last is not None:
        result["last_round"] = {
            "number": last.number,
            "winner_seat": last.winner_seat,
            "points": list(last.points),
            "hands": {str(s): list(hand) for s, hand in enumerate(last.hands)},
        }
    if revealed:
        result["revealed"] = {"draw_pile": list(state.draw_pile), "seed": state.seed}
    return result


def _dealt_hand(data: dict[str, Any], seat: int) -> list[str] | None:
    seats: list[int] = data["seats"]
    if seat not in seats:
        return None
    k = len(seats)
    return list(data["deck"][seats.index(seat) : 7 * k : k])


def _with_counts(item: Event) -> Event:
    """``item`` with the counts every viewer gets beside the cards (drawn, in a new pile)."""
    kind, data = item["type"], item["data"]
    if kind == "cards_drawn":
        return {**item, "data": {**data, "count": len(data["cards"])}}
    if kind in ("pile_reshuffled", "forfeited"):
        return {**item, "data": {**data, "draw_pile_count": len(data["draw_pile"])}}
    return item


def event_view(item: Event, viewer: int | None, revealed: bool) -> Event:
    """``item`` as ``viewer`` may see it: cards hidden from that seat are left out.

    ``revealed`` (the game is finished) shows everything. Drawn cards and new draw piles always
    come with their count (``count``, ``draw_pile_count``), the cards themselves only when shown.
    """
    if revealed:
        return _with_counts(item)
    kind = item["type"]
    data = item["data"]
    seat = item["seat"]
    if kind == "game_started":
        data = {k: v for k, v in data.items() if k != "seed"}
    elif kind == "round_started":
        hidden = {k: v for k, v in data.items() if k != "deck"}
        if viewer is not None:
            hand = _dealt_hand(data, viewer)
            if hand is not None:
                hidden["hand"] = hand
        data = hidden
    elif kind == "starter_returned":
        data = {"card": data["card"]}
    elif kind == "cards_drawn":
        shown = {k: v for k, v in data.items() if k != "cards"}
        shown["count"] = len(data["cards"])
        if viewer == seat:
            shown["cards"] = data["cards"]
        data = shown
    elif kind in ("pile_reshuffled", "forfeited"):
        data = {k: v for k, v in data.items() if k != "draw_pile"}
        data["draw_pile_count"] = len(item["data"]["draw_pile"])
    elif kind == "challenged":
        if viewer != seat and viewer != data["target"]:
            data = {k: v for k, v in data.items() if k != "hand"}
    elif kind == "turn_changed":
        pending = data["pending"]
        if pending is not None and "card" in pending and viewer != pending["seat"]:
            data = {**data, "pending": {k: v for k, v in pending.items() if k != "card"}}
    else:
        return item
    return {"type": kind, "seat": seat, "data": data}
