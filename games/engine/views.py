"""What a seat may see: ``view(state, seat)``, ``legal_actions(state, seat)`` and ``event_view``.

This module is the one place that decides visibility. A seat sees its own hand, the other hands
as counts, the public piles as counts and the top card; a seat of ``None`` is a spectator and sees
no hand. A finished game reveals everything: every hand, the draw pile and the seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import UnionType
from typing import Any, Union, get_args, get_origin

from games.engine.cards import ACTIONS as ACTION_RANKS
from games.engine.cards import COLOR_OF, COLORS, RANK_OF, WILD, WILD_DRAW4, WILDS
from games.engine.events import Event
from games.engine.evolve import pending_to_data
from games.engine.rules import (
    PLAYABLE,
    _finishes_on_action,
    can_stack,
    discarded_with,
    has_play,
    is_partner,
    may_jump_in,
)
from games.engine.shapes import (
    EVENT_DATA,
    PENDING_KINDS,
    CountOf,
    DealtHand,
    Hidden,
    OneOf,
    fields_of,
    kind_of,
    unwrap,
)
from games.engine.state import GameState, Pending

Action = dict[str, Any]


def _play_entries(state: GameState, seat: int, card: str) -> list[Action]:
    """Every complete play of ``card`` by ``seat``: a wild once per colour, a 7 once per target
    (a 0 under ``zero_swap`` once per target and once without). A 2 under ``two_gives`` is
    listed without a gift: add ``"give"`` (up to two codes of the hand) and ``"target"``."""
    options = state.options
    hand = state.hands[seat]
    hand_size = len(hand)
    if _finishes_on_action(options, hand_size, (card,)):
        return []
    entries: list[Action] = [{"action": "play", "card": card}]
    rank = RANK_OF[card]
    if card in (WILD, WILD_DRAW4):
        entries = [{**entry, "color": color} for entry in entries for color in COLORS]
    elif (options.seven_zero and rank == "7") or (options.zero_swap and rank == "0"):
        targets = [s for s in range(state.players) if s != seat and state.statuses[s] == "playing"]
        swaps = [{**entry, "target": target} for entry in entries for target in targets]
        entries = swaps if options.seven_zero else entries + swaps
    left = hand_size - 1
    if options.discarding_rank == rank:
        rest = list(hand)
        rest.remove(card)
        left -= len(discarded_with(options, rest, card))
    if left == 1:
        entries += [{**entry, "uno": True} for entry in entries]
    return entries


def _wild_entries(card: str) -> list[Action]:
    """The plays of a wild, once per colour (``_play_entries`` under ``Options.plain_plays``)."""
    return [
        {"action": "play", "card": card, "color": "red"},
        {"action": "play", "card": card, "color": "yellow"},
        {"action": "play", "card": card, "color": "green"},
        {"action": "play", "card": card, "color": "blue"},
    ]


assert tuple(entry["color"] for entry in _wild_entries(WILD)) == COLORS


def _plain_entries(card: str, two: bool) -> list[Action]:
    """``_play_entries`` under ``Options.plain_plays``: the card itself (a wild once per colour),
    and each with ``uno`` when the play leaves one card (the hand holds ``two``)."""
    entries = _wild_entries(card) if card in WILDS else [{"action": "play", "card": card}]
    if two:
        entries += [{**entry, "uno": True} for entry in entries]
    return entries


def legal_actions(state: GameState, seat: int | None) -> list[Action]:
    """Every action ``decide`` accepts from ``seat`` now, in the API's action shape.

    With ``multi_play`` and ``color_runs`` only single-card plays are listed; any legal set or run
    may be sent. Under ``two_gives`` a 2 is listed without a gift (see ``_play_entries``).
    """
    discard = state.discard_pile
    if seat is None or state.status != "active" or not discard:
        return []  # a spectator, a game over, or mid-deal (a replay just after round_started)
    mine = seat == state.current
    if mine:  # the current seat is one of the table's (its number is in range)
        if state.statuses[seat] != "playing":  # it just went out (a replay mid-move)
            return []
    elif not 0 <= seat < state.players or state.statuses[seat] != "playing":
        return []
    hand = state.hands[seat]
    pending = state.pending
    options = state.options
    actions: list[Action]
    if mine:
        if pending is None:
            top, color = discard[-1], state.color
            if (
                options.plain_plays
                and color is not None
                and not (options.action_on_action and RANK_OF[top] in ACTION_RANKS)
            ):
                # No rule adds to a card's entries: each playable card is listed as itself (a
                # wild once per colour), with its uno variants when it leaves one card, inline
                # (``_play_entries`` gives the same): this runs for every view and every bot move.
                # The hand is filtered in C (``filter``), then its distinct cards kept in order.
                # A hand with no playable card (a third of the turns) is found out in one C loop
                # of set lookups, cheaper than a call per card.
                cards, test = PLAYABLE[top][color]
                playable: Iterable[str] = (
                    () if cards.isdisjoint(hand) else dict.fromkeys(filter(test, hand))
                )
                size = len(hand)
                if size == 2:
                    actions = []
                    for card in playable:
                        if card in WILDS:
                            actions += _plain_entries(card, True)
                        else:  # _plain_entries, inlined
                            actions += (
                                {"action": "play", "card": card},
                                {"action": "play", "card": card, "uno": True},
                            )
                else:
                    actions = []
                    for card in playable:
                        if card in WILDS:
                            actions += _wild_entries(card)
                        else:
                            actions.append({"action": "play", "card": card})
                if not (options.must_play and has_play(state, seat)):
                    actions.append({"action": "draw"})
                if state.catchable or (size == 1 and seat not in state.uno):
                    return _and_any_time(state, seat, hand, actions)
                return actions
            actions = []
            top_rank = RANK_OF[top]
            strict = options.action_on_action and top_rank in ACTION_RANKS
            for card in dict.fromkeys(hand):
                # matches(), inlined
                rank = RANK_OF[card]
                if strict and rank != top_rank and rank in ACTION_RANKS:
                    continue
                if COLOR_OF[card] == color or rank == top_rank or card in WILDS:
                    actions += _play_entries(state, seat, card)
            if not (options.must_play and has_play(state, seat)):
                actions.append({"action": "draw"})
        elif pending.kind == "color":
            actions = [{"action": "color", "color": color} for color in COLORS]
        elif pending.kind == "play_drawn":
            assert pending.card is not None
            if options.plain_plays:  # _play_entries, inlined as above
                actions = _plain_entries(pending.card, len(hand) == 2)
            else:
                actions = _play_entries(state, seat, pending.card)
            if not options.force_play:
                actions.append({"action": "pass"})
        else:
            if pending.kind == "wild_draw4":
                actions = [{"action": "challenge"}, {"action": "accept"}]
            else:
                actions = [{"action": "draw"}]
            for card in dict.fromkeys(hand):
                if can_stack(state, card):
                    actions += _play_entries(state, seat, card)
    elif may_jump_in(state, seat):
        actions = _play_entries(state, seat, state.discard_pile[-1])
    else:
        actions = []
    return _and_any_time(state, seat, hand, actions)


def _and_any_time(
    state: GameState, seat: int, hand: tuple[str, ...], actions: list[Action]
) -> list[Action]:
    """``actions`` and the actions a seat may take at any time: say UNO, catch another seat."""
    if len(hand) == 1 and seat not in state.uno:
        actions.append({"action": "uno"})
    if state.catchable:
        for target in sorted(state.catchable):
            if target != seat and not is_partner(state.options, seat, target):
                actions.append({"action": "catch", "target": target})
    return actions


def pending_view(pending: Pending | None, viewer: int | None, revealed: bool) -> Action | None:
    """The pending decision as ``viewer`` may see it (``shapes.PENDING_KINDS`` marks what is
    hidden: a drawn card is shown only to the seat that drew it)."""
    data = pending_to_data(pending)
    if data is None:
        return None
    return _redacted(data, _PENDING[data["type"]], data["seat"], viewer, revealed)


def view(state: GameState, seat: int | None, revealed: bool | None = None) -> dict[str, Any]:
    """The game as ``seat`` may see it (``None``: a spectator).

    ``revealed`` shows every card; by default a finished game is revealed and no other.
    """
    if revealed is None:
        revealed = state.status == "finished"
    seats = []
    teams = state.options.teams
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
        if state.banks:
            entry["bank"] = state.banks[s]
        if teams:
            entry["team"] = s % teams
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
    if teams:
        result["winner_team"] = state.winner_team
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


def _dealt_hand(data: Mapping[str, Any], seat: int) -> list[str] | None:
    seats: list[int] = data["seats"]
    if seat not in seats:
        return None
    k = len(seats)
    return list(data["deck"][seats.index(seat) : 7 * k : k])


# --- redaction, read from the shapes' markers ----------------------------------------------------


@dataclass(frozen=True)
class _Redaction:
    """What ``event_view`` does to the data of one shape, compiled from its definition once."""

    hidden: dict[str, tuple[str, ...]]  # field -> the fields naming the seats that see it
    counts: tuple[tuple[str, str], ...]  # (view-only field, the stored list it counts)
    dealt_hand: str | None  # the view-only field of the viewer's dealt cards
    unions: tuple[tuple[str, str, dict[str, _Redaction]], ...]  # (field, kind field, per kind)

    @property
    def empty(self) -> bool:
        return not (self.hidden or self.counts or self.dealt_hand or self.unions)


def _union_of(hint: Any) -> OneOf | None:
    if get_origin(hint) in (Union, UnionType):
        hint = next(arg for arg in get_args(hint) if arg is not type(None))
    return next((m for m in unwrap(hint)[1] if isinstance(m, OneOf)), None)


def _compile(shape: type) -> _Redaction:
    hidden: dict[str, tuple[str, ...]] = {}
    counts: list[tuple[str, str]] = []
    unions: list[tuple[str, str, dict[str, _Redaction]]] = []
    dealt_hand = None
    for field in fields_of(shape):
        marker = field.marker(Hidden)
        if marker is not None:
            hidden[field.name] = marker.shown_to
        count = field.marker(CountOf)
        if count is not None:
            counts.append((field.name, count.field))
        if field.marker(DealtHand) is not None:
            dealt_hand = field.name
        union = _union_of(field.hint)
        if union is not None:
            members = {kind_of(m, union.on): _compile(m) for m in union.members}
            unions.append((field.name, union.on, members))
    return _Redaction(hidden, tuple(counts), dealt_hand, tuple(unions))


_REDACTIONS: dict[str, _Redaction] = {t: _compile(shape) for t, shape in EVENT_DATA.items()}
_PENDING = {kind: _compile(shape) for kind, shape in PENDING_KINDS.items()}


def _redacted(
    data: Mapping[str, Any], plan: _Redaction, seat: int | None, viewer: int | None, revealed: bool
) -> dict[str, Any]:
    """``data`` as ``viewer`` may see it; ``seat`` is the seat of the object ``data`` belongs to."""
    if revealed:
        shown = dict(data)
    else:
        shown = {}
        hidden = plan.hidden
        for name, value in data.items():
            if name in hidden:
                seats = hidden[name]
                if viewer is None or not any(
                    viewer == (seat if who == "seat" else data.get(who)) for who in seats
                ):
                    continue
            shown[name] = value
        if plan.dealt_hand is not None and viewer is not None:
            hand = _dealt_hand(data, viewer)
            if hand is not None:
                shown[plan.dealt_hand] = hand
    for name, counted in plan.counts:
        shown[name] = len(data[counted])
    for name, on, kinds in plan.unions:
        value = shown.get(name)
        if value is not None:
            shown[name] = _redacted(value, kinds[value[on]], value.get("seat"), viewer, revealed)
    return shown


def shown_alike(kind: str) -> bool:
    """Whether every viewer, seat or spectator, finished game or not, sees an event of type
    ``kind`` the same (its shape hides nothing and adds nothing): ``event_view`` returns it as
    it is."""
    return _REDACTIONS[kind].empty


def event_view(item: Event, viewer: int | None, revealed: bool) -> Event:
    """``item`` as ``viewer`` may see it: the fields its shape marks ``Hidden`` from that seat are
    left out, the view-only fields (``CountOf``, ``DealtHand``) are added.

    ``revealed`` (the game is finished) shows everything. Drawn cards and new draw piles always
    come with their count (``count``, ``draw_pile_count``), the cards themselves only when shown.
    """
    plan = _REDACTIONS[item["type"]]
    if plan.empty:
        return item
    seat = item["seat"]
    return {
        "type": item["type"],
        "seat": seat,
        "data": _redacted(item["data"], plan, seat, viewer, revealed),
    }
