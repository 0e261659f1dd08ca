"""``apply(state, event) -> state`` and ``replay(events) -> state``: folding the log.

Each applier writes the changes of one event into a draft (``state.draft_of``) in place: a replay
copies the state once, not once per event, and ``rules.Turn`` folds a move's events the same way.

Applying an event never decides anything and never draws a random number: it writes down what
``decide`` already worked out. It does check that the log is consistent (the cards drawn are the
top of the draw pile, the cards played are in the hand) and raises ``ValueError`` when it is not.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from games.engine.cards import COLOR_OF, NUMBER_CARDS
from games.engine.events import PENALTY_DRAWS, VOLUNTARY_DRAWS, Event
from games.engine.options import options_from_data
from games.engine.shapes import (
    EVENT_DATA,
    BankChangedData,
    CardPlayedData,
    CardsDrawnData,
    CardsGivenData,
    ChallengedData,
    ColorChosenData,
    ColorDiscardedData,
    ForfeitedData,
    GameEndedData,
    GameStartedData,
    HandsRotatedData,
    HandsSwappedData,
    PassedData,
    PileReshuffledData,
    RoundEndedData,
    RoundStartedData,
    SeatTakenOverData,
    StarterReturnedData,
    StarterTurnedData,
    TimedOutData,
    TurnChangedData,
    UnoCaughtData,
    UnoSaidData,
    WentOutData,
)
from games.engine.state import (
    GameState,
    Pending,
    SeatStatus,
    draft_of,
    fields_of,
    initial_state,
    make_pending,
    make_round_result,
)

# The arguments: the draft, the event's seat (an int for a seat's event, None for the table's:
# each applier declares which it takes) and its data, the TypedDict of its type
# (``shapes.EVENT_DATA``).
Applier = Callable[[GameState, Any, Any], None]
"""Writes the changes of one event into a draft (``state.draft_of``), in place."""
HAND_SIZE = 7
APPLIERS: dict[str, Applier] = {}
"""Event type -> the function that applies an event of that type."""
_EMPTY: frozenset[int] = frozenset()


def applies(type_: str) -> Callable[[Applier], Applier]:
    """Registers the applier of the events of ``type_``, a type ``shapes.EVENT_DATA`` defines."""
    if type_ not in EVENT_DATA:
        raise ValueError(f"no shape defines the event type {type_!r}")

    def register(applier: Applier) -> Applier:
        APPLIERS[type_] = applier
        return applier

    return register


def _replace_at(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _remove_cards(hand: tuple[str, ...], cards: list[str]) -> tuple[str, ...]:
    rest = list(hand)
    for card in cards:
        try:
            rest.remove(card)
        except ValueError:
            raise ValueError(f"inconsistent log: {card} is not in the hand {hand}") from None
    return tuple(rest)


def _own_move(state: GameState, seat: int, data: Mapping[str, Any]) -> None:
    """Changes common to every move a seat makes on its turn.

    The move closes the UNO catch window, ends the jump-in ban on the latest penalty cards and, when
    the seat made it itself rather than the server for it, resets its count of timeouts.
    """
    w = fields_of(state)
    w["catchable"] = _EMPTY
    w["penalty_drawn"] = None
    if not data.get("auto") and state.timeouts[seat]:
        w["timeouts"] = _replace_at(state.timeouts, seat, 0)


@applies("game_started")
def _game_started(state: GameState, seat: int, data: GameStartedData) -> None:
    w = fields_of(state)
    w.clear()
    options = options_from_data(data["options"])
    w.update(fields_of(initial_state(data["players"], options, data["seed"], data.get("salt", ""))))


@applies("round_started")
def _round_started(state: GameState, seat: int, data: RoundStartedData) -> None:
    deck: list[str] = data["deck"]
    seats: list[int] = data["seats"]
    dealt = len(seats) * HAND_SIZE
    hands: list[tuple[str, ...]] = [()] * state.players
    for offset, s in enumerate(seats):
        hands[s] = tuple(deck[offset : dealt : len(seats)])
    statuses: tuple[SeatStatus, ...] = state.statuses
    if "out" in statuses:
        statuses = tuple(["playing" if status == "out" else status for status in statuses])
    fields_of(state).update(
        round_number=data["number"],
        dealer=data["dealer"],
        hands=tuple(hands),
        statuses=statuses,
        uno=_EMPTY,
        catchable=_EMPTY,
        draw_pile=tuple(deck[dealt:]),
        discard_pile=(),
        color=None,
        direction=1,
        current=seats[0],
        pending=None,
        shuffles=state.shuffles + (0 if data.get("given") else 1),
        penalty_drawn=None,
        out_order=(),
        given_deck=bool(data.get("given")),
    )


@applies("starter_returned")
def _starter_returned(state: GameState, seat: int, data: StarterReturnedData) -> None:
    pile = state.draw_pile
    if not pile or pile[0] != data["card"]:
        raise ValueError("inconsistent log: the starter card is not on top of the draw pile")
    rest = pile[1:]
    position = data["position"]
    w = fields_of(state)
    w["draw_pile"] = (*rest[:position], data["card"], *rest[position:])
    w["shuffles"] = state.shuffles + (0 if state.given_deck else 1)


@applies("starter_turned")
def _starter_turned(state: GameState, seat: int, data: StarterTurnedData) -> None:
    card = data["card"]
    if not state.draw_pile or state.draw_pile[0] != card:
        raise ValueError("inconsistent log: the starter card is not on top of the draw pile")
    w = fields_of(state)
    w["draw_pile"] = state.draw_pile[1:]
    w["discard_pile"] = (card,)
    w["color"] = COLOR_OF[card]


def pending_from_data(data: dict[str, Any] | None) -> Pending | None:
    if data is None:
        return None
    get = data.get
    return make_pending(
        data["type"],
        data["seat"],
        get("card"),
        get("amount", 0),
        get("from_seat"),
        get("previous_color"),
        get("draw_card"),
    )


def pending_to_data(pending: Pending | None) -> dict[str, Any] | None:
    if pending is None:
        return None
    data: dict[str, Any] = {"type": pending.kind, "seat": pending.seat}
    if pending.card is not None:
        data["card"] = pending.card
    if pending.amount:
        data["amount"] = pending.amount
    if pending.from_seat is not None:
        data["from_seat"] = pending.from_seat
    if pending.previous_color is not None:
        data["previous_color"] = pending.previous_color
    if pending.draw_card is not None:
        data["draw_card"] = pending.draw_card
    return data


@applies("turn_changed")
def _turn_changed(state: GameState, seat: int, data: TurnChangedData) -> None:
    w = state.__dict__  # fields_of(state), inlined: every move
    w["current"] = data["seat"]
    w["direction"] = data["direction"]
    pending = data["pending"]
    w["pending"] = None if pending is None else pending_from_data(pending)


@applies("card_played")
def _card_played(state: GameState, seat: int, data: CardPlayedData) -> None:
    cards: list[str] = data["cards"]
    old = state.hands[seat]
    if len(cards) == 1:
        card = cards[0]
        try:
            index = old.index(card)
        except ValueError:
            raise ValueError(f"inconsistent log: {card} is not in the hand {old}") from None
        hand = old[:index] + old[index + 1 :]
        played: tuple[str, ...] = (card,)
    else:
        hand = _remove_cards(old, cards)
        played = tuple(cards)
    w = state.__dict__  # fields_of(state), inlined: every move
    uno = state.uno
    if len(hand) == 1:
        if data.get("uno"):
            w["uno"] = uno | {seat}
            w["catchable"] = _EMPTY
        else:
            w["catchable"] = frozenset((seat,))
    else:
        if seat in uno:
            w["uno"] = uno - {seat}
        w["catchable"] = _EMPTY
    timeouts = state.timeouts
    if timeouts[seat] and not data.get("auto"):
        w["timeouts"] = _replace_at(timeouts, seat, 0)
    hands = state.hands
    w["hands"] = (*hands[:seat], hand, *hands[seat + 1 :])
    w["discard_pile"] = state.discard_pile + played
    w["color"] = data["color"]
    w["pending"] = None
    w["penalty_drawn"] = None


@applies("cards_drawn")
def _cards_drawn(state: GameState, seat: int, data: CardsDrawnData) -> None:
    cards: list[str] = data["cards"]
    reason = data["reason"]
    count = len(cards)
    pile = state.draw_pile
    drawn = pile[:count]
    if len(drawn) != count or list(drawn) != cards:
        raise ValueError("inconsistent log: the cards drawn are not the top of the draw pile")
    if reason in VOLUNTARY_DRAWS:
        _own_move(state, seat, data)
    w = state.__dict__  # fields_of(state), inlined: every move
    hands = state.hands
    hand = hands[seat] + drawn
    uno = state.uno
    if seat in uno and len(hand) != 1:
        w["uno"] = uno - {seat}
    catchable = state.catchable
    if seat in catchable:
        w["catchable"] = catchable - {seat}
    if reason in PENALTY_DRAWS:
        # The penalty cards drawn since the last move: they may not jump in, and a wild-draw4's
        # challenge leaves its player's out. One penalty may come in two draws, on either side
        # of a reshuffle: the seat's record grows. Two seats may draw a penalty between two
        # moves (a seat's unsaid UNO drawn as a move closes its window, then a catch of the seat
        # that moved). For a jump-in only a copy of the top card matters, a number card, which
        # stays on top until the next play resets the record: of its two copies one is on top,
        # so one seat at most drew the other. An earlier seat's record that holds it is kept.
        old = state.penalty_drawn
        if old is None:
            w["penalty_drawn"] = (seat, drawn)
        elif old[0] == seat:
            w["penalty_drawn"] = (seat, old[1] + drawn)
        else:
            top = state.discard_pile[-1]
            if top not in old[1] or top not in NUMBER_CARDS:
                w["penalty_drawn"] = (seat, drawn)
    w["hands"] = (*hands[:seat], hand, *hands[seat + 1 :])
    w["draw_pile"] = pile[count:]


def _settle_uno(state: GameState, seat: int, hand: tuple[str, ...], said: bool) -> None:
    """The UNO state of ``seat`` once its play (with a discard or a gift) leaves it ``hand``."""
    w = fields_of(state)
    if len(hand) == 1:
        if said:
            w["uno"] = state.uno | {seat}
            w["catchable"] = state.catchable - {seat}
        else:
            w["uno"] = state.uno - {seat}
            w["catchable"] = state.catchable | {seat}
    else:
        w["uno"] = state.uno - {seat}
        w["catchable"] = state.catchable - {seat}


@applies("color_discarded")
def _color_discarded(state: GameState, seat: int, data: ColorDiscardedData) -> None:
    cards: list[str] = data["cards"]
    hand = _remove_cards(state.hands[seat], cards)
    pile = state.discard_pile
    w = fields_of(state)
    w["hands"] = _replace_at(state.hands, seat, hand)
    w["discard_pile"] = (*pile[:-1], *cards, *pile[-1:])
    _settle_uno(state, seat, hand, data["uno"])


@applies("cards_given")
def _cards_given(state: GameState, seat: int, data: CardsGivenData) -> None:
    cards: list[str] = data["cards"]
    target = data["target"]
    hand = _remove_cards(state.hands[seat], cards)
    hands = _replace_at(state.hands, seat, hand)
    hands = _replace_at(hands, target, state.hands[target] + tuple(cards))
    _settle_uno(state, seat, hand, data["uno"])
    # The receiver holds more than one card now: nothing to say or to catch.
    w = fields_of(state)
    w["uno"] = state.uno - {target}
    w["catchable"] = state.catchable - {target}
    w["hands"] = hands


@applies("pile_reshuffled")
def _pile_reshuffled(state: GameState, seat: int, data: PileReshuffledData) -> None:
    w = fields_of(state)
    w["draw_pile"] = tuple(data["draw_pile"])
    w["discard_pile"] = state.discard_pile[-1:]
    w["shuffles"] = state.shuffles + 1


@applies("passed")
def _passed(state: GameState, seat: int, data: PassedData) -> None:
    _own_move(state, seat, data)


@applies("challenged")
def _challenged(state: GameState, seat: int, data: ChallengedData) -> None:
    _own_move(state, seat, data)
    if data["guilty"]:
        fields_of(state)["color"] = data["color"]


@applies("color_chosen")
def _color_chosen(state: GameState, seat: int, data: ColorChosenData) -> None:
    _own_move(state, seat, data)
    fields_of(state)["color"] = data["color"]


@applies("uno_said")
def _uno_said(state: GameState, seat: int, data: UnoSaidData) -> None:
    w = fields_of(state)
    w["uno"] = state.uno | {seat}
    w["catchable"] = state.catchable - {seat}


@applies("uno_caught")
def _uno_caught(state: GameState, seat: int, data: UnoCaughtData) -> None:
    fields_of(state)["catchable"] = state.catchable - {data["target"]}


@applies("hands_swapped")
def _hands_swapped(state: GameState, seat: int, data: HandsSwappedData) -> None:
    target = data["target"]
    hands = list(state.hands)
    hands[seat], hands[target] = hands[target], hands[seat]
    both = {seat, target}
    w = fields_of(state)
    w["hands"] = tuple(hands)
    w["uno"] = state.uno - both
    w["catchable"] = state.catchable - both


@applies("hands_rotated")
def _hands_rotated(state: GameState, seat: int, data: HandsRotatedData) -> None:
    direction = data["direction"]
    holders = [s for s in range(state.players) if state.statuses[s] == "playing"]
    if direction < 0:
        holders.reverse()
    hands = list(state.hands)
    for index, s in enumerate(holders):
        hands[holders[(index + 1) % len(holders)]] = state.hands[s]
    w = fields_of(state)
    w["hands"] = tuple(hands)
    w["uno"] = _EMPTY
    w["catchable"] = _EMPTY


@applies("timed_out")
def _timed_out(state: GameState, seat: int, data: TimedOutData) -> None:
    w = fields_of(state)
    w["timeouts"] = _replace_at(state.timeouts, seat, data["count"])
    w["catchable"] = _EMPTY
    w["penalty_drawn"] = None


@applies("bank_changed")
def _bank_changed(state: GameState, seat: int, data: BankChangedData) -> None:
    fields_of(state)["banks"] = _replace_at(state.banks, seat, data["bank"])


@applies("went_out")
def _went_out(state: GameState, seat: int, data: WentOutData) -> None:
    w = fields_of(state)
    w["statuses"] = _replace_at(state.statuses, seat, "out")
    w["out_order"] = (*state.out_order, seat)


@applies("forfeited")
def _forfeited(state: GameState, seat: int, data: ForfeitedData) -> None:
    fields_of(state).update(
        hands=_replace_at(state.hands, seat, ()),
        statuses=_replace_at(state.statuses, seat, "forfeited"),
        draw_pile=tuple(data["draw_pile"]),
        uno=state.uno - {seat},
        catchable=state.catchable - {seat},
        shuffles=state.shuffles + 1,
    )


@applies("seat_taken_over")
def _seat_taken_over(state: GameState, seat: int, data: SeatTakenOverData) -> None:
    # The bot starts with no timeouts of its own: the count was the player's.
    fields_of(state)["timeouts"] = _replace_at(state.timeouts, seat, 0)


@applies("round_ended")
def _round_ended(state: GameState, seat: int, data: RoundEndedData) -> None:
    points: list[int] = data["points"]
    fields_of(state).update(
        scores=tuple([score + p for score, p in zip(state.scores, points, strict=True)]),
        last_round=make_round_result(
            data["number"], data["winner_seat"], tuple(points), tuple(map(tuple, data["hands"]))
        ),
        pending=None,
        catchable=_EMPTY,
    )


@applies("game_ended")
def _game_ended(state: GameState, seat: int, data: GameEndedData) -> None:
    fields_of(state).update(
        status="finished",
        winner=data["winner_seat"],
        winner_team=data.get("winner_team"),
        pending=None,
        catchable=_EMPTY,
    )


assert set(APPLIERS) == set(EVENT_DATA), "every event type has one applier"


def apply(state: GameState | None, event: Event) -> GameState:
    """The state after ``event``. ``state`` is ``None`` only before the ``game_started`` event."""
    return replay((event,), state)


def replay(events: Iterable[Event], state: GameState | None = None) -> GameState:
    """Fold ``events`` into a state, starting from ``state`` (or from nothing).

    The events are written into one draft, a copy of ``state``: ``state`` itself is not changed.
    """
    draft = None if state is None else draft_of(state)
    appliers = APPLIERS
    for item in events:
        type_ = item["type"]
        applier = appliers.get(type_)
        if applier is None:
            raise ValueError(f"unknown event type {type_!r}")
        if draft is None:
            if type_ != "game_started":
                raise ValueError("a log must begin with game_started")
            draft = draft_of(None)
        applier(draft, item["seat"], item["data"])
    if draft is None:
        raise ValueError("an empty log holds no game")
    return draft
