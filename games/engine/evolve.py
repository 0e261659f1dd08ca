"""``apply(state, event) -> state`` and ``replay(events) -> state``: folding the log.

Applying an event never decides anything and never draws a random number: it writes down what
``decide`` already worked out. It does check that the log is consistent (the cards drawn are the
top of the draw pile, the cards played are in the hand) and raises ``ValueError`` when it is not.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from games.engine.cards import COLOR_OF
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
    StarterReturnedData,
    StarterTurnedData,
    TimedOutData,
    TurnChangedData,
    UnoCaughtData,
    UnoSaidData,
    WentOutData,
)
from games.engine.state import GameState, Pending, RoundResult, SeatStatus, initial_state

# The data argument is the TypedDict of the event's type (``shapes.EVENT_DATA``).
Applier = Callable[[GameState, int, Any], GameState]
HAND_SIZE = 7
APPLIERS: dict[str, Applier] = {}
"""Event type -> the function that applies an event of that type."""


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


def _own_move(state: GameState, seat: int, data: Mapping[str, Any]) -> dict[str, Any]:
    """Changes common to every move a seat makes on its turn.

    The move closes the UNO catch window, ends the jump-in ban on the latest penalty cards and, when
    the seat made it itself rather than the server for it, resets its count of timeouts.
    """
    changes: dict[str, Any] = {"catchable": frozenset(), "penalty_drawn": None}
    if not data.get("auto") and state.timeouts[seat]:
        changes["timeouts"] = _replace_at(state.timeouts, seat, 0)
    return changes


@applies("game_started")
def _game_started(state: GameState, seat: int, data: GameStartedData) -> GameState:
    return initial_state(
        data["players"], options_from_data(data["options"]), data["seed"], data.get("salt", "")
    )


@applies("round_started")
def _round_started(state: GameState, seat: int, data: RoundStartedData) -> GameState:
    deck: list[str] = data["deck"]
    seats: list[int] = data["seats"]
    dealt = len(seats) * HAND_SIZE
    hands: list[tuple[str, ...]] = [()] * state.players
    for offset, s in enumerate(seats):
        hands[s] = tuple(deck[offset : dealt : len(seats)])
    statuses: tuple[SeatStatus, ...] = tuple(
        "playing" if status == "out" else status for status in state.statuses
    )
    return state.evolve(
        round_number=data["number"],
        dealer=data["dealer"],
        hands=tuple(hands),
        statuses=statuses,
        uno=frozenset(),
        catchable=frozenset(),
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
def _starter_returned(state: GameState, seat: int, data: StarterReturnedData) -> GameState:
    pile = state.draw_pile
    if not pile or pile[0] != data["card"]:
        raise ValueError("inconsistent log: the starter card is not on top of the draw pile")
    rest = pile[1:]
    position = data["position"]
    return state.evolve(
        draw_pile=(*rest[:position], data["card"], *rest[position:]),
        shuffles=state.shuffles + (0 if state.given_deck else 1),
    )


@applies("starter_turned")
def _starter_turned(state: GameState, seat: int, data: StarterTurnedData) -> GameState:
    card = data["card"]
    if not state.draw_pile or state.draw_pile[0] != card:
        raise ValueError("inconsistent log: the starter card is not on top of the draw pile")
    return state.evolve(draw_pile=state.draw_pile[1:], discard_pile=(card,), color=COLOR_OF[card])


def pending_from_data(data: dict[str, Any] | None) -> Pending | None:
    if data is None:
        return None
    return Pending(
        kind=data["type"],
        seat=data["seat"],
        card=data.get("card"),
        amount=data.get("amount", 0),
        from_seat=data.get("from_seat"),
        previous_color=data.get("previous_color"),
        draw_card=data.get("draw_card"),
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
def _turn_changed(state: GameState, seat: int, data: TurnChangedData) -> GameState:
    return state.evolve(
        current=data["seat"],
        direction=data["direction"],
        pending=pending_from_data(data["pending"]),
    )


@applies("card_played")
def _card_played(state: GameState, seat: int, data: CardPlayedData) -> GameState:
    cards: list[str] = data["cards"]
    old = state.hands[seat]
    if len(cards) == 1:
        card = cards[0]
        index = old.index(card) if card in old else -1
        if index < 0:
            raise ValueError(f"inconsistent log: {card} is not in the hand {old}")
        hand = old[:index] + old[index + 1 :]
    else:
        hand = _remove_cards(old, cards)
    uno = state.uno
    catchable: frozenset[int] = frozenset()
    if len(hand) == 1:
        if data.get("uno"):
            uno = uno | {seat}
        else:
            catchable = frozenset((seat,))
    elif seat in uno:
        uno = uno - {seat}
    timeouts = state.timeouts
    if timeouts[seat] and not data.get("auto"):
        timeouts = _replace_at(timeouts, seat, 0)
    return state.evolve(
        hands=_replace_at(state.hands, seat, hand),
        discard_pile=state.discard_pile + tuple(cards),
        color=data["color"],
        uno=uno,
        catchable=catchable,
        pending=None,
        penalty_drawn=None,
        timeouts=timeouts,
    )


@applies("cards_drawn")
def _cards_drawn(state: GameState, seat: int, data: CardsDrawnData) -> GameState:
    cards: list[str] = data["cards"]
    reason = data["reason"]
    count = len(cards)
    pile = state.draw_pile
    drawn = pile[:count]
    if len(drawn) != count or list(drawn) != cards:
        raise ValueError("inconsistent log: the cards drawn are not the top of the draw pile")
    changes = _own_move(state, seat, data) if reason in VOLUNTARY_DRAWS else {}
    catchable = changes.get("catchable", state.catchable)
    hand = state.hands[seat] + drawn
    uno = state.uno
    if seat in uno and len(hand) != 1:
        uno = uno - {seat}
    if seat in catchable:
        catchable = catchable - {seat}
    changes["catchable"] = catchable
    if reason in PENALTY_DRAWS:
        changes["penalty_drawn"] = (seat, drawn)
    return state.evolve(
        hands=_replace_at(state.hands, seat, hand), draw_pile=pile[count:], uno=uno, **changes
    )


def _settle_uno(state: GameState, seat: int, hand: tuple[str, ...], said: bool) -> dict[str, Any]:
    """The UNO state of ``seat`` once its play (with a discard or a gift) leaves it ``hand``."""
    if len(hand) == 1:
        if said:
            return {"uno": state.uno | {seat}, "catchable": state.catchable - {seat}}
        return {"uno": state.uno - {seat}, "catchable": state.catchable | {seat}}
    return {"uno": state.uno - {seat}, "catchable": state.catchable - {seat}}


@applies("color_discarded")
def _color_discarded(state: GameState, seat: int, data: ColorDiscardedData) -> GameState:
    cards: list[str] = data["cards"]
    hand = _remove_cards(state.hands[seat], cards)
    pile = state.discard_pile
    return state.evolve(
        hands=_replace_at(state.hands, seat, hand),
        discard_pile=(*pile[:-1], *cards, *pile[-1:]),
        **_settle_uno(state, seat, hand, data["uno"]),
    )


@applies("cards_given")
def _cards_given(state: GameState, seat: int, data: CardsGivenData) -> GameState:
    cards: list[str] = data["cards"]
    target = data["target"]
    hand = _remove_cards(state.hands[seat], cards)
    hands = _replace_at(state.hands, seat, hand)
    hands = _replace_at(hands, target, state.hands[target] + tuple(cards))
    changes = _settle_uno(state, seat, hand, data["uno"])
    # The receiver holds more than one card now: nothing to say or to catch.
    changes["uno"] -= {target}
    changes["catchable"] -= {target}
    return state.evolve(hands=hands, **changes)


@applies("pile_reshuffled")
def _pile_reshuffled(state: GameState, seat: int, data: PileReshuffledData) -> GameState:
    return state.evolve(
        draw_pile=tuple(data["draw_pile"]),
        discard_pile=state.discard_pile[-1:],
        shuffles=state.shuffles + 1,
    )


@applies("passed")
def _passed(state: GameState, seat: int, data: PassedData) -> GameState:
    return state.evolve(**_own_move(state, seat, data))


@applies("challenged")
def _challenged(state: GameState, seat: int, data: ChallengedData) -> GameState:
    changes = _own_move(state, seat, data)
    if data["guilty"]:
        changes["color"] = data["color"]
    return state.evolve(**changes)


@applies("color_chosen")
def _color_chosen(state: GameState, seat: int, data: ColorChosenData) -> GameState:
    return state.evolve(color=data["color"], **_own_move(state, seat, data))


@applies("uno_said")
def _uno_said(state: GameState, seat: int, data: UnoSaidData) -> GameState:
    return state.evolve(uno=state.uno | {seat}, catchable=state.catchable - {seat})


@applies("uno_caught")
def _uno_caught(state: GameState, seat: int, data: UnoCaughtData) -> GameState:
    return state.evolve(catchable=state.catchable - {data["target"]})


@applies("hands_swapped")
def _hands_swapped(state: GameState, seat: int, data: HandsSwappedData) -> GameState:
    target = data["target"]
    hands = list(state.hands)
    hands[seat], hands[target] = hands[target], hands[seat]
    both = {seat, target}
    return state.evolve(hands=tuple(hands), uno=state.uno - both, catchable=state.catchable - both)


@applies("hands_rotated")
def _hands_rotated(state: GameState, seat: int, data: HandsRotatedData) -> GameState:
    direction = data["direction"]
    holders = [s for s in range(state.players) if state.statuses[s] == "playing"]
    if direction < 0:
        holders.reverse()
    hands = list(state.hands)
    for index, s in enumerate(holders):
        hands[holders[(index + 1) % len(holders)]] = state.hands[s]
    return state.evolve(hands=tuple(hands), uno=frozenset(), catchable=frozenset())


@applies("timed_out")
def _timed_out(state: GameState, seat: int, data: TimedOutData) -> GameState:
    return state.evolve(
        timeouts=_replace_at(state.timeouts, seat, data["count"]),
        catchable=frozenset(),
        penalty_drawn=None,
    )


@applies("bank_changed")
def _bank_changed(state: GameState, seat: int, data: BankChangedData) -> GameState:
    return state.evolve(banks=_replace_at(state.banks, seat, data["bank"]))


@applies("went_out")
def _went_out(state: GameState, seat: int, data: WentOutData) -> GameState:
    return state.evolve(
        statuses=_replace_at(state.statuses, seat, "out"), out_order=(*state.out_order, seat)
    )


@applies("forfeited")
def _forfeited(state: GameState, seat: int, data: ForfeitedData) -> GameState:
    return state.evolve(
        hands=_replace_at(state.hands, seat, ()),
        statuses=_replace_at(state.statuses, seat, "forfeited"),
        draw_pile=tuple(data["draw_pile"]),
        uno=state.uno - {seat},
        catchable=state.catchable - {seat},
        shuffles=state.shuffles + 1,
    )


@applies("round_ended")
def _round_ended(state: GameState, seat: int, data: RoundEndedData) -> GameState:
    points: list[int] = data["points"]
    return state.evolve(
        scores=tuple(score + p for score, p in zip(state.scores, points, strict=True)),
        last_round=RoundResult(
            number=data["number"],
            winner_seat=data["winner_seat"],
            points=tuple(points),
            hands=tuple(tuple(hand) for hand in data["hands"]),
        ),
        pending=None,
        catchable=frozenset(),
    )


@applies("game_ended")
def _game_ended(state: GameState, seat: int, data: GameEndedData) -> GameState:
    return state.evolve(
        status="finished",
        winner=data["winner_seat"],
        winner_team=data.get("winner_team"),
        pending=None,
        catchable=frozenset(),
    )


assert set(APPLIERS) == set(EVENT_DATA), "every event type has one applier"


def apply(state: GameState | None, event: Event) -> GameState:
    """The state after ``event``. ``state`` is ``None`` only before the ``game_started`` event."""
    applier = APPLIERS.get(event["type"])
    if applier is None:
        raise ValueError(f"unknown event type {event['type']!r}")
    if state is None and event["type"] != "game_started":
        raise ValueError("a log must begin with game_started")
    return applier(state, event["seat"], event["data"])  # type: ignore[arg-type]


def replay(events: Iterable[Event], state: GameState | None = None) -> GameState:
    """Fold ``events`` into a state, starting from ``state`` (or from nothing)."""
    for item in events:
        state = apply(state, item)
    if state is None:
        raise ValueError("an empty log holds no game")
    return state
