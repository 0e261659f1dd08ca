"""``decide(state, seat, action) -> events``: the rule book, as a pure function.

Every action of the API contract (play, draw, pass, challenge, accept, color, uno, catch) and the
server's own actions (start a game, time out the seat that must act, resign) are decided here. A
refused action raises ``IllegalMove`` with the contract's code and changes nothing.

Decisions the rule book leaves open, taken as the official rules would or as stated here:

- UNO: a seat that ends its own play holding one card without saying UNO can be caught until the
  next move on the table (any seat's play, draw, pass, challenge, colour, or a timeout). A seat
  that comes to hold one card by a 7's swap or a 0's rotation has played nothing and cannot be
  caught. ``uno`` on a play is accepted only when the play leaves one card. A catch that draws
  nothing (``uno_penalty`` 0, or both piles exhausted) leaves the seat one card: it may still
  say UNO then, which changes nothing (the rule book's "have not been caught" guards a penalty
  there is none of).
- A wild-draw4 challenge judges the hand the card was played from: cards the challenged seat drew
  since (a catch for its unsaid UNO, the only draw in between) do not count. The challenger is
  shown the hand as it is at the challenge.
- A card that empties a hand applies its draw at once: the next seat draws 2 (or 4, plus any
  stacked penalty) with no chance to stack or challenge, then the round is scored (or, with
  ``elimination``, goes on).
- ``seven_zero``: a 7 always names a ``target`` seat; when the 7 is the seat's last card the round
  ends before any swap. A 0 passes every hand one seat on in the direction of play. With
  ``multi_play`` several 7s or 0s act once. A card that empties the hand moves no hands (a 7 or a
  ``zero_swap`` 0 swaps none, a 0 or a ``one_rotates`` 1 passes none): with ``elimination`` the
  others play on with the hands they hold.
- ``multi_play`` takes number cards only.
- ``jump_in`` takes one number card identical to the top card, from a seat that is not the one to
  act, while no decision is pending; play goes on from the jumper. The seat that just played is
  not the one to act and may jump in too, and so may any seat on a number starter. Cards drawn
  as a penalty since the last move may not jump in, drawn before a reshuffle or after it, and
  whoever drew a penalty after them.
- ``draw_until_playable`` with ``force_play``: the playable card that ends the drawing must be
  played. A timeout always keeps a drawn card and passes, as the "Time" section says.
- Drawing when both piles are exhausted draws nothing and is still the seat's move (an empty
  ``cards_drawn``): it closes the UNO catch window and resets the seat's timeout count.
- A first player who forfeits before naming the colour of a starter wild passes that choice on to
  the next seat. A seat that forfeits while it owes a draw penalty (stacked, or a wild-draw4 it
  has not answered) takes it along: the next seat plays. A wild-draw4 whose player forfeits before
  it is answered stands: the next seat owes the 4 and may not challenge (there is no hand to
  show).
- A forfeited seat is dealt no cards and plays no further part; the dealer moves one seat
  clockwise each round, past the seats that have forfeited. Only seats still playing the round
  act: a seat that has gone out (``elimination``) or forfeited may not catch, say UNO or jump in,
  and is no target of a swap or a gift.
- With two seats left holding cards (forfeits, ``elimination``) a reverse acts as a skip, as with
  two players.
- The draw pile is refilled (the discard pile but its top card, shuffled) when a card is to be
  drawn and none is left, as often as one draw needs. A starter wild-draw4 (or, with
  ``number_starter``, any other starter) goes back at a random one of the pile's places, its top
  included (then it is turned and goes back again).
- A timeout applies the action the rule book names and then, at ``max_timeouts`` consecutive
  timeouts, the forfeit. Forfeited cards are shuffled into the draw pile.
- ``elimination``: the first seat to go out is the round's winner. With ``winner`` scoring it scores
  the cards left in the last hand; with ``penalty`` scoring every seat scores its own hand.
- ``penalty`` scoring: when a seat reaches the target the game ends; the lowest total wins, ties to
  the lower seat number. ``winner`` scoring: the highest total wins, ties to the lower seat number.
  A seat that has forfeited does not win at the target. With teams the same holds of the teams'
  totals, ties to the lower team number.
- The second set: an effect belongs to the play's last card (the top card), as with
  ``seven_zero``: several 8s or a run ending on an 8 take one extra turn, several 2s give once.
  ``two_gives``: ``target`` on a 2 names who receives ``give`` and comes only with a non-empty
  ``give``; a gift is checked against the hand left after the play. ``zero_swap``: a 0 with no
  ``target`` swaps nothing. ``zero_discards_color``: the cards discarded are those of the 0's
  colour left in the hand after the play (with ``seven_zero`` the 0 discards first, then the hands
  rotate). ``must_play`` binds a seat's own turn only: facing a draw penalty or a wild-draw4 a seat
  may always take it, and a timeout still draws. ``action_on_action`` also binds a
  ``reverse_bounce`` on a draw2. ``uno_auto_penalty``: the penalty is drawn right after the move
  that closes the catch window, unless the seat went out, left, or a new round began.
- ``teams``: every seat of a team scores the team's points, so each seat's score is its team's
  total; a game whose seats still playing are all of one team ends, that team winning it.
- The bank clock: a seat's "own move" that earns the increment is one that hands on the turn
  (a play, draw, pass, challenge, accept or colour; not ``uno`` or ``catch``). A draw that keeps
  the turn (the card drawn is playable) and naming a starter wild's colour count too: what
  follows (play or keep; the first play) is a decision of its own, with time of its own, as the
  Time section gives it a timeout of its own ("deciding about a drawn playable card", "naming a
  colour for a starter wild"); the rule book's "after each of its own moves" counts moves, not
  turns. A move by another
  seat that takes the turn away (a jump-in) leaves the seat that had to act what it had left,
  without the increment. The service passes the seconds left in (``left``): the engine reads no
  clock.
- A stack of draw cards passes on through the seats in the direction of play; with
  ``reverse_bounce`` a reverse of the current colour sends it back to the seat that played the last
  draw card, which may stack, bounce it again or draw.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from itertools import chain, pairwise
from typing import Any, Final, Literal, overload

from games.engine.cards import (
    ACTIONS as ACTION_RANKS,
)
from games.engine.cards import (
    CARD_CODES,
    COLOR_OF,
    COLORS,
    DECK,
    NUMBER_CARDS,
    POINTS,
    PRINTED_COLOR,
    RANK_OF,
    WILD,
    WILD_DRAW4,
    WILDS,
)
from games.engine.errors import IllegalMove
from games.engine.events import VOLUNTARY_DRAWS, Event
from games.engine.evolve import APPLIERS, pending_to_data
from games.engine.limits import PLAYERS
from games.engine.options import Options
from games.engine.shapes import (
    BankChangedData,
    CardPlayedData,
    CardsDrawnData,
    CardsGivenData,
    ChallengedData,
    ColorChosenData,
    ColorDiscardedData,
    Direction,
    DrawReason,
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
    draft_of,
    make_pending,
    set_pending_fields,
    set_state_fields,
)

MIN_PLAYERS = PLAYERS.low
MAX_PLAYERS = PLAYERS.high
ACTIONS = ("play", "draw", "pass", "challenge", "accept", "color", "uno", "catch")
REVERSED: Final[dict[int, Direction]] = {1: -1, -1: 1}  # ``-direction``, as a Direction


class Turn:
    """Events decided so far, and the state they lead to: later rules read the state in between.

    ``state`` is a draft (``state.draft_of``), a copy of the state the move starts from: each event
    is written into it as it is decided. So a rule that needs a value from before an event reads it
    before emitting the event (``turn.state`` and any name bound to it show the latest values).
    """

    __slots__ = ("events", "state")
    events: list[Event]
    state: GameState

    def __init__(self, state: GameState) -> None:
        self.state = draft_of(state)
        self.events = []

    # One overload per event type, naming the shape of its data (``shapes.EVENT_DATA``, which a
    # test holds them to): mypy checks each event's type, seat (None: the table's) and data
    # against its definition. At run time ``emit`` is the one function below.
    @overload
    def emit(
        self, type_: Literal["game_started"], seat: None, data: GameStartedData, /
    ) -> None: ...
    @overload
    def emit(
        self, type_: Literal["round_started"], seat: None, data: RoundStartedData, /
    ) -> None: ...
    @overload
    def emit(
        self, type_: Literal["starter_returned"], seat: None, data: StarterReturnedData, /
    ) -> None: ...
    @overload
    def emit(
        self, type_: Literal["starter_turned"], seat: None, data: StarterTurnedData, /
    ) -> None: ...
    @overload
    def emit(
        self, type_: Literal["turn_changed"], seat: None, data: TurnChangedData, /
    ) -> None: ...
    @overload
    def emit(self, type_: Literal["card_played"], seat: int, data: CardPlayedData, /) -> None: ...
    @overload
    def emit(self, type_: Literal["cards_drawn"], seat: int, data: CardsDrawnData, /) -> None: ...
    @overload
    def emit(
        self, type_: Literal["color_discarded"], seat: int, data: ColorDiscardedData, /
    ) -> None: ...
    @overload
    def emit(self, type_: Literal["cards_given"], seat: int, data: CardsGivenData, /) -> None: ...
    @overload
    def emit(
        self, type_: Literal["pile_reshuffled"], seat: None, data: PileReshuffledData, /
    ) -> None: ...
    @overload
    def emit(self, type_: Literal["passed"], seat: int, data: PassedData, /) -> None: ...
    @overload
    def emit(self, type_: Literal["challenged"], seat: int, data: ChallengedData, /) -> None: ...
    @overload
    def emit(self, type_: Literal["color_chosen"], seat: int, data: ColorChosenData, /) -> None: ...
    @overload
    def emit(self, type_: Literal["uno_said"], seat: int, data: UnoSaidData, /) -> None: ...
    @overload
    def emit(self, type_: Literal["uno_caught"], seat: int, data: UnoCaughtData, /) -> None: ...
    @overload
    def emit(
        self, type_: Literal["hands_swapped"], seat: int, data: HandsSwappedData, /
    ) -> None: ...
    @overload
    def emit(
        self, type_: Literal["hands_rotated"], seat: int, data: HandsRotatedData, /
    ) -> None: ...
    @overload
    def emit(self, type_: Literal["timed_out"], seat: int, data: TimedOutData, /) -> None: ...
    @overload
    def emit(self, type_: Literal["bank_changed"], seat: int, data: BankChangedData, /) -> None: ...
    @overload
    def emit(self, type_: Literal["went_out"], seat: int, data: WentOutData, /) -> None: ...
    @overload
    def emit(self, type_: Literal["forfeited"], seat: int, data: ForfeitedData, /) -> None: ...
    @overload
    def emit(
        self, type_: Literal["seat_taken_over"], seat: int, data: SeatTakenOverData, /
    ) -> None: ...
    @overload
    def emit(self, type_: Literal["round_ended"], seat: None, data: RoundEndedData, /) -> None: ...
    @overload
    def emit(self, type_: Literal["game_ended"], seat: None, data: GameEndedData, /) -> None: ...
    def emit(self, type_: str, seat: int | None, data: Mapping[str, Any], /) -> None:
        """Write the event into the draft and keep it (the event keeps ``data`` itself)."""
        APPLIERS[type_](self.state, seat, data)
        self.events.append({"type": type_, "seat": seat, "data": data})


# --- small rules ---------------------------------------------------------------------------


def rng_key(seed: int, salt: str, shuffles: int) -> str:
    """The key of a game's random choice number ``shuffles`` (docs/fairness.md): the seed mixed
    with the secret salt, so that a seed known to anyone predicts no deck. A game begun before
    fair decks has no salt and keeps the key its shuffles were made with."""
    return f"{seed}:{salt}:{shuffles}" if salt else f"{seed}:{shuffles}"


def _rng(state: GameState) -> random.Random:
    """The random source of the game's next random choice: fixed by the seed, the salt and the
    count (``random.Random`` hashes a string key with SHA-512)."""
    return random.Random(rng_key(state.seed, state.salt, state.shuffles))


# _SHUFFLE_STEPS[size]: each step of ``shuffle`` on ``size`` cards, (index, the count of cards to
# choose among, the bits ``getrandbits`` draws for it), made once per size.
_SHUFFLE_STEPS: dict[int, tuple[tuple[int, int, int], ...]] = {}


def shuffle(rng: random.Random, cards: list[str]) -> None:
    """``rng.shuffle(cards)``: the same order from the same calls to ``getrandbits``, written as
    one loop over steps made once (``random.shuffle`` calls a Python function per card; a round
    deals 108 cards)."""
    size = len(cards)
    steps = _SHUFFLE_STEPS.get(size)
    if steps is None:
        steps = tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))
        if size <= 1024:
            _SHUFFLE_STEPS[size] = steps
    getrandbits = rng.getrandbits
    for i, n, k in steps:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def next_seat(state: GameState, seat: int, steps: int = 1, direction: int | None = None) -> int:
    """The seat ``steps`` places on from ``seat`` among the seats still holding cards."""
    step = state.direction if direction is None else direction
    statuses = state.statuses
    n = state.players
    if steps == 1:
        seat = (seat + step) % n
        while statuses[seat] != "playing":
            seat = (seat + step) % n
        return seat
    for _ in range(steps):
        seat = (seat + step) % n
        while statuses[seat] != "playing":
            seat = (seat + step) % n
    return seat


def holders(state: GameState) -> list[int]:
    return [s for s in range(state.players) if state.statuses[s] == "playing"]


def matches(card: str, top: str, color: str | None, action_on_action: bool = False) -> bool:
    """Whether ``card`` may be played on ``top`` when ``color`` is the current colour."""
    if card in WILDS:
        return True
    rank = RANK_OF[card]
    top_rank = RANK_OF[top]
    if action_on_action and rank != top_rank and rank in ACTION_RANKS and top_rank in ACTION_RANKS:
        return False
    return COLOR_OF[card] == color or rank == top_rank


# PLAYABLE_ON[top][color]: the cards ``matches`` lets go on ``top`` in ``color`` (the official
# rules, without action_on_action): one set lookup per card of a hand.
PLAYABLE_ON: dict[str, dict[str, frozenset[str]]] = {
    top: {color: frozenset(c for c in CARD_CODES if matches(c, top, color)) for color in COLORS}
    for top in CARD_CODES
}
# PLAYABLE_TEST[top][color]: the membership test of PLAYABLE_ON[top][color], made once, to filter a
# hand in C (``filter(test, hand)``).
PLAYABLE_TEST: dict[str, dict[str, Callable[[str], bool]]] = {
    top: {color: cards.__contains__ for color, cards in by_color.items()}
    for top, by_color in PLAYABLE_ON.items()
}
# PLAYABLE[top][color]: both, in one lookup: (PLAYABLE_ON[top][color], PLAYABLE_TEST[top][color]).
PLAYABLE: dict[str, dict[str, tuple[frozenset[str], Callable[[str], bool]]]] = {
    top: {color: (cards, PLAYABLE_TEST[top][color]) for color, cards in by_color.items()}
    for top, by_color in PLAYABLE_ON.items()
}


def fits(state: GameState, card: str) -> bool:
    """Whether ``card`` goes on the top card now (``matches`` under the game's options)."""
    return matches(card, state.discard_pile[-1], state.color, state.options.action_on_action)


def is_partner(options: Options, seat: int, other: int) -> bool:
    return bool(options.teams) and seat % options.teams == other % options.teams


def discarded_with(options: Options, hand: Sequence[str], card: str) -> list[str]:
    """``zero_discards_color``: the cards of ``hand`` (the play's cards taken out) that go to the
    discard pile with ``card``, the play's last card."""
    rank = options.discarding_rank
    if rank is None or RANK_OF[card] != rank:
        return []
    color = COLOR_OF[card]
    return [c for c in hand if COLOR_OF[c] == color]


def has_play(state: GameState, seat: int) -> bool:
    """``must_play``: whether ``seat`` holds a card it could play now, wild-draw4s left out."""
    hand = state.hands[seat]
    options = state.options
    return any(
        card != WILD_DRAW4
        and fits(state, card)
        and not _finishes_on_action(options, len(hand), (card,))
        for card in hand
    )


def can_stack(state: GameState, card: str) -> bool:
    """Whether ``card`` may be played on the pending draw penalty (``stacking``)."""
    pending = state.pending
    if pending is None or not state.options.stacking:
        return False
    if (
        state.options.action_on_action
        and RANK_OF[card] == "reverse"
        and RANK_OF[state.discard_pile[-1]] == "draw2"
    ):
        return False
    if pending.draw_card == WILD_DRAW4:
        if card == WILD_DRAW4 or (RANK_OF[card] == "draw2" and COLOR_OF[card] == state.color):
            return True
    elif card == WILD_DRAW4 or RANK_OF[card] == "draw2":
        return True
    return (
        state.options.reverse_bounce
        and RANK_OF[card] == "reverse"
        and COLOR_OF[card] == state.color
    )


def _finishes_on_action(options: Options, hand_size: int, cards: Sequence[str]) -> bool:
    """Whether the play would go out on a card ``no_action_finish`` or ``no_wild_finish``
    forbids to finish on."""
    if hand_size != len(cards):
        return False
    if options.no_action_finish:
        return cards[-1] not in NUMBER_CARDS
    return options.no_wild_finish and cards[-1] in WILDS


def _holds(hand: Sequence[str], cards: Sequence[str]) -> bool:
    if len(cards) == 1:
        return cards[0] in hand
    need = Counter(cards)
    have = Counter(hand)
    return all(have[c] >= k for c, k in need.items())


def _jump_in_cards(state: GameState, seat: int) -> int:
    """How many copies of the top card ``seat`` may jump in with."""
    top = state.top_card
    if top is None or top not in NUMBER_CARDS:
        return 0
    count = state.hands[seat].count(top)
    if count and state.penalty_drawn is not None and state.penalty_drawn[0] == seat:
        count -= state.penalty_drawn[1].count(top)
    return count


def may_jump_in(state: GameState, seat: int) -> bool:
    return (
        state.options.jump_in
        and state.pending is None
        and seat != state.current
        and state.statuses[seat] == "playing"
        and _jump_in_cards(state, seat) > 0
    )


def _illegal(code: str, detail: str) -> IllegalMove:
    return IllegalMove(code, detail)


def _invalid(detail: str) -> IllegalMove:
    return IllegalMove("invalid", detail)


# --- starting a game and a round ------------------------------------------------------------


def start_game(
    players: int,
    options: Options,
    seed: int,
    deck: Sequence[str] | None = None,
    salt: str = "",
) -> list[Event]:
    """The events that create a game of ``players`` seats and deal its first round.

    ``salt`` (hex, secret until the game ends) is mixed with ``seed`` into every shuffle.
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise _invalid(f"A game needs {MIN_PLAYERS} to {MAX_PLAYERS} players.")
    if deck is not None:
        check_deck(deck)
    check_teams(players, options)
    turn = Turn.__new__(Turn)
    turn.events = []
    turn.state = draft_of(None)  # game_started writes every field
    started: GameStartedData = {"players": players, "options": options.to_data(), "seed": seed}
    if salt:
        started["salt"] = salt
    turn.emit("game_started", None, started)
    _start_round(turn, number=1, dealer=players - 1, deck=deck)
    return turn.events


def check_teams(players: int, options: Options) -> None:
    """Partners need a number of players that is a multiple of the teams, 2 or more each."""
    teams = options.teams
    if teams and (players % teams or players < 2 * teams):
        detail = (
            f"{teams} teams need a multiple of {teams} players, at least {2 * teams}: "
            f"{players} are seated."
        )
        check = {"code": "teams_players", "message": detail, "teams": teams, "players": players}
        raise IllegalMove("invalid_rules", detail, {"teams": [check]})


def check_deck(deck: Sequence[str]) -> None:
    if not isinstance(deck, list | tuple) or len(deck) != len(DECK):
        raise IllegalMove("invalid_deck", f"A deck is a list of {len(DECK)} card codes.")
    if not all(isinstance(c, str) for c in deck) or Counter(deck) != Counter(DECK):
        raise IllegalMove("invalid_deck", "A deck holds each card of the 108 exactly once.")


def _start_round(turn: Turn, number: int, dealer: int, deck: Sequence[str] | None) -> None:
    state = turn.state
    seats = [s for s in range(state.players) if state.statuses[s] != "forfeited"]
    first_index = 0  # the first seat after the dealer (a loop: a generator closed early costs)
    for index, s in enumerate(seats):
        if s > dealer:
            first_index = index
            break
    seats = seats[first_index:] + seats[:first_index]
    if deck is None:
        order = list(DECK)
        shuffle(_rng(state), order)
    else:
        order = list(deck)
    turn.emit(
        "round_started",
        None,
        {
            "number": number,
            "dealer": dealer,
            "seats": seats,
            "deck": order,
            "given": deck is not None,
        },
    )
    _turn_starter(turn, first=seats[0], dealer=dealer)


def _turn_starter(turn: Turn, first: int, dealer: int) -> None:
    numbers_only = turn.state.options.number_starter
    while turn.state.draw_pile[0] == WILD_DRAW4 or (
        numbers_only and turn.state.draw_pile[0] not in NUMBER_CARDS
    ):
        pile_left = len(turn.state.draw_pile) - 1
        position = pile_left if turn.state.given_deck else _rng(turn.state).randrange(pile_left + 1)
        turn.emit("starter_returned", None, {"card": turn.state.draw_pile[0], "position": position})
    card = turn.state.draw_pile[0]
    turn.emit("starter_turned", None, {"card": card})
    rank = RANK_OF[card]
    if card == WILD:
        _change_turn(turn, first, pending=make_pending(kind="color", seat=first))
    elif rank == "skip":
        _change_turn(turn, next_seat(turn.state, first))
    elif rank == "reverse":
        _change_turn(turn, dealer, direction=-1)
    elif rank == "draw2":
        _draw(turn, first, 2, "starter")
        _change_turn(turn, next_seat(turn.state, first))
    else:
        _change_turn(turn, first)


def _change_turn(
    turn: Turn, seat: int, *, direction: Direction | None = None, pending: Pending | None = None
) -> None:
    turn.emit(
        "turn_changed",
        None,
        {
            "seat": seat,
            "direction": turn.state.direction if direction is None else direction,
            "pending": None if pending is None else pending_to_data(pending),
        },
    )


# --- drawing ---------------------------------------------------------------------------------


def _refill(turn: Turn) -> bool:
    """Shuffle the discard pile but its top card into a new draw pile; False if none is left."""
    state = turn.state
    if len(state.discard_pile) <= 1:
        return False
    order = list(state.discard_pile[:-1])
    shuffle(_rng(state), order)
    turn.emit("pile_reshuffled", None, {"draw_pile": order})
    return True


def _draw(
    turn: Turn, seat: int, count: int, reason: DrawReason, *, auto: bool = False
) -> list[str]:
    """Draw ``count`` cards (fewer if both piles run out); return them. ``auto``: the server
    draws for the seat (a timeout)."""
    drawn: list[str] = []
    while count > 0:
        pile = turn.state.draw_pile
        if not pile:
            if not _refill(turn):
                break
            continue
        cards = list(pile[:count])
        turn.emit(
            "cards_drawn",
            seat,
            {"cards": cards, "reason": reason, "auto": True}
            if auto
            else {"cards": cards, "reason": reason},
        )
        drawn += cards
        count -= len(cards)
    if not drawn and reason in VOLUNTARY_DRAWS:
        # Both piles are exhausted: drawing nothing is still the seat's own move.
        turn.emit(
            "cards_drawn",
            seat,
            {"cards": [], "reason": reason, "auto": True}
            if auto
            else {"cards": [], "reason": reason},
        )
    return drawn


def _draw_until_playable(turn: Turn, seat: int) -> str | None:
    """Draw one card at a time until a playable one; return it (None if the piles ran out)."""
    drew = False
    while True:
        state = turn.state
        pile = state.draw_pile
        if not pile:
            if not _refill(turn):
                if not drew:  # drawing nothing is still the seat's own move
                    turn.emit("cards_drawn", seat, {"cards": [], "reason": "draw"})
                return None
            continue
        drew = True
        top, color = state.discard_pile[-1], state.color
        strict = state.options.action_on_action
        index = next((i for i, c in enumerate(pile) if matches(c, top, color, strict)), None)
        if index is None:
            turn.emit("cards_drawn", seat, {"cards": list(pile), "reason": "draw"})
            continue
        turn.emit("cards_drawn", seat, {"cards": list(pile[: index + 1]), "reason": "draw"})
        return pile[index]


# --- the actions -----------------------------------------------------------------------------


def _require_turn(state: GameState, seat: int) -> None:
    if state.actor != seat:
        raise _illegal("not_your_turn", f"It is seat {state.actor}'s move, not yours.")


def _parse_cards(state: GameState, action: dict[str, Any]) -> list[str]:
    if "cards" in action:
        if "card" in action:
            raise _invalid("Send either 'card' or 'cards', not both.")
        if not (state.options.multi_play or state.options.color_runs):
            raise _invalid(
                "'cards' plays several cards at once: only with the multi_play or color_runs rule."
            )
        cards = action["cards"]
        if not isinstance(cards, list) or not cards:
            raise _invalid("'cards' must be a non-empty list of card codes.")
    elif "card" in action:
        cards = [action["card"]]
    else:
        raise _invalid("A play needs a 'card'.")
    for card in cards:
        if not isinstance(card, str) or card not in CARD_CODES:
            raise _invalid(f"Unknown card code {card!r}.")
    return cards


def is_run(cards: Sequence[str]) -> bool:
    """``color_runs``: two or more number cards of one colour in consecutive order, rising or
    falling, without wrapping past 9."""
    if len(cards) < 2 or not all(c in NUMBER_CARDS for c in cards):
        return False
    if len({COLOR_OF[c] for c in cards}) != 1:
        return False
    numbers = [int(RANK_OF[c]) for c in cards]
    step = numbers[1] - numbers[0]
    return step in (1, -1) and all(b - a == step for a, b in pairwise(numbers))


def _check_combination(options: Options, cards: list[str]) -> None:
    if len(cards) > 1:
        rank = RANK_OF[cards[0]]
        same_number = cards[0] in NUMBER_CARDS and all(RANK_OF[c] == rank for c in cards)
        if options.multi_play and same_number:
            return
        if options.color_runs and is_run(cards):
            return
        if options.multi_play and options.color_runs:
            detail = "Several cards at once are a run of one colour or number cards of one number."
        elif options.color_runs:
            detail = "Several cards at once must be a run of one colour, like blue 3, 4, 5."
        else:
            detail = "Several cards at once must be number cards of the same number."
        raise _illegal("illegal_card", detail)


def _check_playable(state: GameState, seat: int, cards: list[str], jump_in: bool) -> None:
    pending = state.pending
    first = cards[0]
    top = state.top_card
    assert top is not None
    if jump_in:
        return
    if pending is None:
        if not matches(first, top, state.color, state.options.action_on_action):
            raise _illegal("illegal_card", f"{first} does not match {top} in {state.color}.")
    elif pending.kind == "color":
        raise _illegal("color_required", "Name the colour of the starter wild first.")
    elif pending.kind == "play_drawn":
        if len(cards) > 1 or first != pending.card:
            raise _illegal("illegal_card", "Only the card just drawn may be played now.")
    else:
        if len(cards) > 1 or not can_stack(state, first):
            if state.options.stacking:
                detail = f"{first} cannot be stacked on the pending draw penalty."
            else:
                detail = "A wild-draw4 was played on you: challenge or accept it."
            raise _illegal("illegal_card", detail)


def _check_extras(state: GameState, seat: int, cards: list[str], action: dict[str, Any]) -> None:
    last = cards[-1]
    color = action.get("color")
    if last in WILDS:
        if color is None:
            raise _illegal("color_required", f"Playing {last} needs a 'color'.")
        if color not in COLORS:
            raise _invalid(f"Unknown colour {color!r}: one of {', '.join(COLORS)}.")
    elif color is not None:
        raise _invalid("Only a wild card takes a 'color'.")
    options = state.options
    target = action.get("target")
    rank = RANK_OF[last]
    give = _check_gift(state, seat, cards, action) if "give" in action else []
    if options.seven_zero and rank == "7":
        if target is None:
            raise _illegal("target_required", "A 7 swaps hands: name a 'target' seat.")
        _check_target(state, seat, target)
    elif options.zero_swap and rank == "0":
        if target is not None:
            _check_target(state, seat, target)
    elif give:
        if target is None:
            raise _illegal("target_required", "A gift needs the 'target' seat that receives it.")
        _check_target(state, seat, target)
    elif target is not None:
        raise _invalid(
            "Only a 7 under seven_zero, a 0 under zero_swap or a 2 giving cards under two_gives "
            "takes a 'target'."
        )
    uno = action.get("uno", False)
    if uno is False:
        return
    if not isinstance(uno, bool):
        raise _invalid("'uno' must be true or false.")
    if uno and _cards_left(state, seat, cards, give) != 1:
        raise _invalid("Say UNO with the play that leaves you one card.")


def _hand_after(hand: Sequence[str], cards: Sequence[str]) -> list[str]:
    rest = list(hand)
    for card in cards:
        rest.remove(card)
    return rest


def _cards_left(state: GameState, seat: int, cards: list[str], give: list[str]) -> int:
    """The cards ``seat`` holds once the play, its discards and its gift are done."""
    rest = _hand_after(state.hands[seat], cards)
    return len(rest) - len(discarded_with(state.options, rest, cards[-1])) - len(give)


def _check_target(state: GameState, seat: int, target: Any) -> None:
    if not _is_seat(state, target) or target == seat or state.statuses[target] != "playing":
        raise _illegal("invalid_target", f"Seat {target!r} cannot take part in a swap or a gift.")


def _check_gift(state: GameState, seat: int, cards: list[str], action: dict[str, Any]) -> list[str]:
    """``two_gives``: the cards a 2 gives away (none if ``give`` is left out or empty)."""
    if "give" not in action:
        return []
    give = action["give"]
    if not state.options.two_gives or RANK_OF[cards[-1]] != "2":
        raise _invalid("Only a 2 under the two_gives rule takes 'give'.")
    if not isinstance(give, list) or not all(isinstance(c, str) and c in CARD_CODES for c in give):
        raise _invalid("'give' must be a list of card codes.")
    if len(give) > 2:
        raise _illegal("illegal_gift", "A 2 gives up to two cards.")
    rest = _hand_after(state.hands[seat], cards)
    if not _holds(rest, give):
        raise _illegal("card_not_in_hand", f"You do not hold {', '.join(give)} to give.")
    if give and len(rest) == len(give):
        raise _illegal("illegal_gift", "A gift may not leave you without a card.")
    return list(give)


def _is_seat(state: GameState, value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < state.players


def _play(turn: Turn, seat: int, action: dict[str, Any]) -> None:
    state = turn.state
    options = state.options
    if "card" in action and "cards" not in action:  # one card: _parse_cards, inlined
        card = action["card"]
        if not isinstance(card, str) or card not in CARD_CODES:
            raise _invalid(f"Unknown card code {card!r}.")
        cards = [card]
    else:
        cards = _parse_cards(state, action)
    jump_in = False
    pending = state.pending
    if (pending.seat if pending is not None else state.current) != seat:
        if len(cards) == 1 and cards[0] == state.top_card and may_jump_in(state, seat):
            jump_in = True
        else:
            _require_turn(state, seat)
    hand = state.hands[seat]
    if len(cards) == 1:
        if cards[0] not in hand:
            raise _illegal("card_not_in_hand", f"You do not hold {', '.join(cards)}.")
    else:
        if not _holds(hand, cards):
            raise _illegal("card_not_in_hand", f"You do not hold {', '.join(cards)}.")
        _check_combination(options, cards)
    last = cards[-1]
    if pending is None and not jump_in:  # _check_playable's first case, inlined
        top = state.discard_pile[-1]
        if not matches(cards[0], top, state.color, options.action_on_action):
            raise _illegal("illegal_card", f"{cards[0]} does not match {top} in {state.color}.")
    else:
        _check_playable(state, seat, cards, jump_in)
    _check_extras(state, seat, cards, action)
    if len(hand) == len(cards) and _finishes_on_action(options, len(hand), cards):
        raise _illegal("illegal_card", "You may not go out on an action or wild card.")
    target = action.get("target")
    uno = action.get("uno", False) is True
    give = action.get("give") or []
    played: CardPlayedData = {
        "cards": cards,
        "color": action["color"] if last in WILDS else PRINTED_COLOR[last],
        "uno": uno,
    }
    if target is not None and not give:  # a gift's target is in its own event
        played["target"] = target
    if jump_in:
        played["jump_in"] = True
    previous_color = state.color
    turn.emit("card_played", seat, played)
    if options.discarding_rank is not None:
        discarded = discarded_with(options, turn.state.hands[seat], last)
        if discarded:
            turn.emit("color_discarded", seat, {"cards": discarded, "uno": uno})
    if give:
        assert target is not None  # a gift names its receiver (_check_extras)
        turn.emit("cards_given", seat, {"target": target, "cards": give, "uno": uno})
    _after_play(turn, seat, last, previous_color, pending, None if give else target)


def _after_play(
    turn: Turn,
    seat: int,
    card: str,
    previous_color: str | None,
    pending: Pending | None,
    target: int | None,
) -> None:
    """Apply the effect of ``card`` just played by ``seat`` and move play on."""
    options = turn.state.options
    rank = RANK_OF[card]
    went_out = not turn.state.hands[seat]
    if went_out and options.elimination:
        turn.emit("went_out", seat, {})
    state = turn.state
    owed = pending.amount if pending is not None and pending.kind != "play_drawn" else 0
    direction = state.direction
    penalty: Pending | None = None
    draw_now: tuple[int, int] | None = None  # (seat, count) drawn at once, then skipped
    if owed and rank == "reverse":  # reverse_bounce: the penalty goes back where it came from
        assert pending is not None and pending.from_seat is not None
        direction = REVERSED[direction]
        back = pending.from_seat
        if state.statuses[back] != "playing":
            back = next_seat(state, seat, direction=direction)
        penalty = make_pending(
            kind="draw_penalty",
            seat=back,
            amount=owed,
            from_seat=seat,
            draw_card=pending.draw_card,
        )
        nxt = back
    elif rank == "draw2" or card == WILD_DRAW4:
        victim = nxt = next_seat(state, seat)
        amount = owed + (4 if card == WILD_DRAW4 else 2)
        if card == WILD_DRAW4 and not owed:
            penalty = make_pending(
                kind="wild_draw4",
                seat=victim,
                amount=amount,
                from_seat=seat,
                previous_color=previous_color,
                draw_card=WILD_DRAW4,
            )
        elif options.stacking:
            penalty = make_pending(
                kind="draw_penalty", seat=victim, amount=amount, from_seat=seat, draw_card=card
            )
        else:
            draw_now = (victim, amount)
    elif rank == "reverse":
        direction = REVERSED[direction]
        if not went_out and len(holders(state)) == 2:
            nxt = seat  # with two players a reverse acts as a skip
        else:
            nxt = next_seat(state, seat, direction=direction)
    elif rank == "skip":
        nxt = next_seat(state, seat, 2)
    elif rank == "8" and options.eight_again and not went_out:
        nxt = seat  # the same seat takes another turn at once
    else:
        nxt = next_seat(state, seat)
    if penalty is not None and went_out:
        draw_now, penalty = (penalty.seat, penalty.amount), None
    if draw_now is not None:
        victim, amount = draw_now
        _draw(turn, victim, amount, "penalty")
        nxt = next_seat(turn.state, victim, direction=direction)
    if went_out:
        if not options.elimination or len(holders(turn.state)) <= 1:
            state = turn.state
            _end_round(turn, winner=state.out_order[0] if state.out_order else seat)
            return
    elif options.seven_zero and rank == "7":
        assert target is not None  # a 7 under seven_zero names one (_check_extras)
        turn.emit("hands_swapped", seat, {"target": target})
    elif options.zero_swap and rank == "0":
        if target is not None:
            turn.emit("hands_swapped", seat, {"target": target})
    elif (options.seven_zero and rank == "0") or (options.one_rotates and rank == "1"):
        turn.emit("hands_rotated", seat, {"direction": direction})
    _change_turn(turn, nxt, direction=direction, pending=penalty)


def _draw_action(turn: Turn, seat: int, action: dict[str, Any]) -> None:
    state = turn.state
    _require_turn(state, seat)
    pending = state.pending
    if pending is None:
        if state.options.must_play and has_play(state, seat):
            raise _illegal("must_play", "With must_play a seat holding a playable card plays it.")
        if state.options.draw_until_playable:
            card = _draw_until_playable(turn, seat)
        elif state.draw_pile:  # _draw of one card, inlined: a draw is every third move or so
            card = state.draw_pile[0]
            turn.emit("cards_drawn", seat, {"cards": [card], "reason": "draw"})
        else:
            drawn = _draw(turn, seat, 1, "draw")
            card = drawn[0] if drawn else None
        state = turn.state
        if card is not None and fits(state, card):
            _change_turn(turn, seat, pending=make_pending(kind="play_drawn", seat=seat, card=card))
        else:
            _change_turn(turn, next_seat(state, seat))
    elif pending.kind == "draw_penalty":
        _take(turn, seat, pending.amount)
    elif pending.kind == "wild_draw4":
        raise _illegal("answer_required", "A wild-draw4 was played on you: challenge or accept.")
    elif pending.kind == "color":
        raise _illegal("color_required", "Name the colour of the starter wild first.")
    else:
        raise _illegal("already_drawn", "You have drawn: play the card you drew or pass.")


def _take(turn: Turn, seat: int, amount: int, *, auto: bool = False) -> None:
    """``seat`` draws the penalty it faces and loses its turn."""
    _draw(turn, seat, amount, "take", auto=auto)
    _change_turn(turn, next_seat(turn.state, seat))


def _pass(turn: Turn, seat: int, action: dict[str, Any]) -> None:
    state = turn.state
    _require_turn(state, seat)
    pending = state.pending
    if pending is None or pending.kind != "play_drawn":
        raise _illegal("nothing_to_pass", "You may pass only to keep a card you just drew.")
    if state.options.force_play:
        raise _illegal("must_play", "With force_play a playable drawn card must be played.")
    turn.emit("passed", seat, {})
    _change_turn(turn, next_seat(turn.state, seat))


def _wild_draw4_on(state: GameState, seat: int, verb: str) -> Pending:
    pending = state.pending
    if pending is None or pending.kind != "wild_draw4":
        if state.actor != seat:
            _require_turn(state, seat)
        raise _illegal("nothing_to_challenge", f"There is no wild-draw4 for you to {verb}.")
    _require_turn(state, seat)
    return pending


def _challenge(turn: Turn, seat: int, action: dict[str, Any]) -> None:
    pending = _wild_draw4_on(turn.state, seat, "challenge")
    target = pending.from_seat
    color = pending.previous_color
    assert target is not None and color is not None  # a wild_draw4 pending has both
    hand = turn.state.hands[target]
    # Guilt is judged on the hand the wild-draw4 was played from: the cards drawn since (a catch
    # for an unsaid UNO, the only draw between the play and its answer) do not count.
    held: Sequence[str] = hand
    since = turn.state.penalty_drawn
    if since is not None and since[0] == target:
        held = _hand_after(hand, since[1])
    guilty = any(COLOR_OF[c] == color for c in held)
    turn.emit(
        "challenged",
        seat,
        {"target": target, "guilty": guilty, "hand": list(hand), "color": color},
    )
    if guilty:
        _draw(turn, target, turn.state.options.bluff_penalty, "bluff")
        _change_turn(turn, seat)
    else:
        _draw(turn, seat, pending.amount + 2, "challenge")
        _change_turn(turn, next_seat(turn.state, seat))


def _accept(turn: Turn, seat: int, action: dict[str, Any]) -> None:
    pending = _wild_draw4_on(turn.state, seat, "accept")
    _take(turn, seat, pending.amount)


def _color(turn: Turn, seat: int, action: dict[str, Any]) -> None:
    state = turn.state
    _require_turn(state, seat)
    color = action.get("color")
    if color not in COLORS:
        raise _invalid(f"Unknown colour {color!r}: one of {', '.join(COLORS)}.")
    if state.pending is None or state.pending.kind != "color":
        raise _illegal("nothing_to_choose", "There is no colour to name now.")
    turn.emit("color_chosen", seat, {"color": color})
    _change_turn(turn, seat)


def _uno(turn: Turn, seat: int, action: dict[str, Any]) -> None:
    state = turn.state
    if len(state.hands[seat]) != 1 or seat in state.uno:
        raise _illegal("cannot_say_uno", "Say UNO while you hold one card, once.")
    turn.emit("uno_said", seat, {})


def _catch(turn: Turn, seat: int, action: dict[str, Any]) -> None:
    state = turn.state
    target = action.get("target")
    if not _is_seat(state, target):
        raise _invalid(f"'target' must be a seat number from 0 to {state.players - 1}.")
    if target == seat or target not in state.catchable:
        raise _illegal("nothing_to_catch", f"Seat {target} cannot be caught now.")
    if is_partner(state.options, seat, target):
        raise _illegal("nothing_to_catch", f"Seat {target} is your partner: you may not catch it.")
    turn.emit("uno_caught", seat, {"target": target})
    _draw(turn, target, state.options.uno_penalty, "caught")


HANDLERS: dict[str, Callable[[Turn, int, dict[str, Any]], None]] = {
    "play": _play,
    "draw": _draw_action,
    "pass": _pass,
    "challenge": _challenge,
    "accept": _accept,
    "color": _color,
    "uno": _uno,
    "catch": _catch,
}
FIELDS: dict[str, frozenset[str]] = {
    "play": frozenset({"action", "card", "cards", "color", "uno", "target", "give"}),
    "color": frozenset({"action", "color"}),
    "catch": frozenset({"action", "target"}),
}
_BARE = frozenset({"action"})


def _check_active(state: GameState) -> None:
    if state.status != "active":
        raise _illegal("game_not_active", "The game is over.")


def _check_seat(state: GameState, seat: int) -> None:
    if not _is_seat(state, seat):
        raise IllegalMove("not_a_player", "You have no seat in this game.")
    status = state.statuses[seat]
    if status == "forfeited":
        raise IllegalMove("not_a_player", "You have left this game.")
    if status == "out":
        raise _illegal("not_your_turn", "You have gone out: the others finish the round.")


def act(
    state: GameState, seat: int, action: dict[str, Any], *, left: int | None = None
) -> tuple[list[Event], GameState]:
    """Decide ``action`` by ``seat``: the events, and the state they lead to.

    ``left``: with a bank clock, the seconds left in the bank of the seat that must act, now
    (the service reads its clock; None: no time used).
    """
    if state.status != "active":
        _check_active(state)
    if type(action) is not dict and not isinstance(action, dict):  # the common case first
        raise _invalid("An action is a JSON object.")
    name = action.get("action")
    try:
        # a name that is no string finds nothing (a subclass of str finds its action)
        move = _MOVES.get(name)  # type: ignore[arg-type]
    except TypeError:  # an unhashable name
        move = None
    if move is None:
        raise _invalid(f"'action' must be one of {', '.join(ACTIONS)}.")
    handler, allowed, short = move
    if short is not None and type(seat) is int and state.options.simple_moves:
        # quick_move, without its call, before _check_seat: it acts only for the seat the game
        # waits for, and only while that seat is still playing (then _check_seat passes). And
        # before the fields are checked: it takes only actions of fields it knows, all allowed
        # (``issuperset`` first copies the action's keys into a set: a cost on every move).
        quick = short(state, seat, action)
        if quick is not None:
            return quick
    if not allowed.issuperset(action):
        unknown = ", ".join(sorted(str(key) for key in set(action) - allowed))
        raise _invalid(f"Unknown field(s) for '{name}': {unknown}.")
    # _check_seat, with its common case first: an int seat of the table still playing
    if type(seat) is not int or not 0 <= seat < state.players or state.statuses[seat] != "playing":
        _check_seat(state, seat)
    turn = Turn(state)
    handler(turn, seat, action)
    if state.catchable and name in CLOSING and state.options.uno_auto_penalty:
        _uno_auto_penalty(turn, state)
    _charge(turn, state, seat, left)
    return turn.events, turn.state


# --- the short path of the commonest moves ----------------------------------------------------

_QUICK_PLAY_FIELDS = frozenset({"action", "card", "color", "uno"})
_NO_SEATS: frozenset[int] = frozenset()


def quick_move(
    state: GameState, seat: int, action: dict[str, Any]
) -> tuple[list[Event], GameState] | None:
    """``act`` for the commonest moves, in one step: the same events and the same state as the
    rules above, or ``None`` for any move it does not cover (``act`` then decides it in full).

    It covers, under options with ``simple_moves``: a draw on the seat's own turn with cards in
    the draw pile; the play of a card that matches and does not empty the hand (a draw2 only
    without ``stacking`` and with the two cards in the draw pile), with its colour and ``uno``, on
    the seat's own turn or of the card it just drew; accepting a wild-draw4 with the cards in the
    draw pile. It refuses nothing: any doubt is ``None``, and so is an action with a field it does
    not take (``act`` calls it before it checks the fields). ``act`` calls it once the action's
    name is checked; a property test holds it to ``act``'s full path.
    """
    short = _QUICK.get(action["action"])
    return None if short is None else short(state, seat, action)


def _own_turn_fields(state: GameState, seat: int) -> dict[str, Any]:
    """A copy of ``state``'s fields with the seat's timeout count reset: its own move."""
    fields = state.__dict__.copy()
    timeouts = state.timeouts
    if timeouts[seat]:
        fields["timeouts"] = (*timeouts[:seat], 0, *timeouts[seat + 1 :])
    return fields


# The fields of a play_drawn decision but its seat and card (``state.make_pending``).
_PLAY_DRAWN: dict[str, Any] = vars(make_pending("play_drawn", 0, WILD))

# The cards whose play passes the turn to the next seat and does nothing else (quick path).
_PLAIN_CARDS = NUMBER_CARDS | {WILD}
# _QUICK_CARDS[card]: what the quick play asks of a card, in one lookup: its printed colour (None
# for a wild), whether it is plain (``_PLAIN_CARDS``), whether it is a draw2.
_QUICK_CARDS: dict[str, tuple[str | None, bool, bool]] = {
    card: (PRINTED_COLOR.get(card), card in _PLAIN_CARDS, RANK_OF[card] == "draw2")
    for card in CARD_CODES
}
assert all((_QUICK_CARDS[card][0] is None) == (card in WILDS) for card in CARD_CODES)


def _quick_play(
    state: GameState, seat: int, action: dict[str, Any]
) -> tuple[list[Event], GameState] | None:
    # The hot path of every benchmark and search: written for few bytecodes and allocations
    # (the helpers it stands for are named in comments; the property test holds it to them).
    pending = state.pending
    if pending is None:
        if state.current != seat:
            return None
    elif pending.kind != "play_drawn" or pending.seat != seat:
        return None
    # A card that is no code of the hand (None, or not a str) finds no index in it: None.
    card: str
    if len(action) == 2:  # {"action": "play", "card": card}; with another key, no card: None
        card = action.get("card")  # type: ignore[assignment]
        color = None
        uno = False
    elif _QUICK_PLAY_FIELDS.issuperset(action):
        card = action.get("card")  # type: ignore[assignment]
        color = action.get("color")
        uno = action.get("uno", False)
    else:
        return None
    hand = state.hands[seat]
    size = len(hand)
    # A card of the hand is a valid code; a seat that went out or left holds no card. The index
    # is the membership test too: one scan of the hand instead of two.
    if size < 2:
        return None
    try:
        index = hand.index(card)
    except ValueError:
        return None
    if pending is not None and card != pending.card:
        return None
    printed, plain, draw2 = _QUICK_CARDS[card]  # one lookup: a card of the hand is a code
    if printed is None:  # a wild
        if color is None or color not in COLORS:
            return None
    elif color is not None:
        return None
    else:
        color = printed
        if draw2 and (state.options.stacking or len(state.draw_pile) < 2):
            return None
    previous_color = state.color
    if pending is None and (
        previous_color is None or card not in PLAYABLE_ON[state.discard_pile[-1]][previous_color]
    ):
        return None
    two_left = size == 2
    if uno is not False and (uno is not True or not two_left):
        return None
    # card_played (_own_turn_fields inlined)
    fields = state.__dict__.copy()
    timeouts = state.timeouts
    if timeouts[seat]:
        fields["timeouts"] = (*timeouts[:seat], 0, *timeouts[seat + 1 :])
    rest = hand[:index] + hand[index + 1 :]
    if two_left:
        if uno:
            fields["uno"] = state.uno | {seat}
            catchable = _NO_SEATS
        else:
            catchable = frozenset((seat,))
    else:
        if seat in state.uno:
            fields["uno"] = state.uno - {seat}
        catchable = _NO_SEATS
    # A field is written only when it changes: a store costs more than the test.
    if catchable or state.catchable:
        fields["catchable"] = catchable
    hands = state.hands
    players = state.players
    if players == 2:  # two seats: one new tuple, no slices
        hands = (rest, hands[1]) if seat == 0 else (hands[0], rest)
    else:
        hands = (*hands[:seat], rest, *hands[seat + 1 :])
    fields["hands"] = hands
    fields["discard_pile"] = state.discard_pile + (card,)  # noqa: RUF005 (one copy, not two)
    if color != previous_color:
        fields["color"] = color
    if state.penalty_drawn is not None:
        fields["penalty_drawn"] = None
    played: CardPlayedData = {"cards": [card], "color": color, "uno": uno}
    # _after_play
    direction = state.direction
    statuses = state.statuses
    if plain:  # the next seat (next_seat inlined)
        nxt = (seat + direction) % players
        if statuses[nxt] != "playing":
            nxt = next_seat(state, seat)
        fields["current"] = nxt
        if pending is not None:
            fields["pending"] = None
        turn_data: TurnChangedData = {"seat": nxt, "direction": direction, "pending": None}
        new = _new_state(GameState)  # _made(fields), inlined
        _set_fields(new, fields)
        return [
            {"type": "card_played", "seat": seat, "data": played},
            {"type": "turn_changed", "seat": None, "data": turn_data},
        ], new
    events: list[Event] = [{"type": "card_played", "seat": seat, "data": played}]
    next_pending: Pending | None = None
    rank = RANK_OF[card]
    if rank == "reverse":
        direction = REVERSED[direction]
        if statuses.count("playing") == 2:
            nxt = seat  # with two players a reverse acts as a skip
        else:
            nxt = next_seat(state, seat, direction=direction)
    elif rank == "skip":
        nxt = next_seat(state, seat, 2)
    elif rank == "draw2":  # the next seat draws two at once and is skipped
        victim = next_seat(state, seat)
        pile = state.draw_pile
        drawn = pile[:2]
        victim_hand = hands[victim] + drawn
        fields["hands"] = (*hands[:victim], victim_hand, *hands[victim + 1 :])
        fields["draw_pile"] = pile[2:]
        if victim in state.uno:  # the victim holds three cards or more now
            fields["uno"] = fields["uno"] - {victim}
        if victim in catchable:
            fields["catchable"] = catchable - {victim}
        fields["penalty_drawn"] = (victim, drawn)
        penalty: CardsDrawnData = {"cards": list(drawn), "reason": "penalty"}
        events.append({"type": "cards_drawn", "seat": victim, "data": penalty})
        nxt = next_seat(state, victim)
    else:  # a wild-draw4: the next seat challenges or accepts
        nxt = next_seat(state, seat)
        next_pending = make_pending(
            kind="wild_draw4",
            seat=nxt,
            amount=4,
            from_seat=seat,
            previous_color=previous_color,
            draw_card=WILD_DRAW4,
        )
    fields["current"] = nxt
    fields["direction"] = direction
    fields["pending"] = next_pending
    changed: TurnChangedData = {
        "seat": nxt,
        "direction": direction,
        "pending": None if next_pending is None else pending_to_data(next_pending),
    }
    events.append({"type": "turn_changed", "seat": None, "data": changed})
    new = _new_state(GameState)  # _made(fields), inlined
    _set_fields(new, fields)
    return events, new


def _quick_draw(
    state: GameState, seat: int, action: dict[str, Any]
) -> tuple[list[Event], GameState] | None:
    pile = state.draw_pile
    if state.pending is not None or state.current != seat or not pile or len(action) != 1:
        return None  # (one field: "action" itself)
    if state.statuses[seat] != "playing":  # (a valid index: the current seat's)
        return None
    card = pile[0]
    fields = state.__dict__.copy()  # _own_turn_fields, inlined
    timeouts = state.timeouts
    if timeouts[seat]:
        fields["timeouts"] = (*timeouts[:seat], 0, *timeouts[seat + 1 :])
    hands = state.hands
    hand = hands[seat] + (card,)
    if state.players == 2:  # two seats: one new tuple, no slices
        fields["hands"] = (hand, hands[1]) if seat == 0 else (hands[0], hand)
    else:
        fields["hands"] = (*hands[:seat], hand, *hands[seat + 1 :])
    fields["draw_pile"] = pile[1:]
    if seat in state.uno and len(hand) != 1:
        fields["uno"] = state.uno - {seat}
    if state.catchable:  # a field is written only when it changes
        fields["catchable"] = _NO_SEATS
    if state.penalty_drawn is not None:
        fields["penalty_drawn"] = None
    color = state.color
    top = state.discard_pile[-1]
    if card in PLAYABLE_ON[top][color] if color is not None else matches(card, top, color):
        turn_data: TurnChangedData = {
            "seat": seat,
            "direction": state.direction,
            "pending": {"type": "play_drawn", "seat": seat, "card": card},
        }
        # make_pending(kind="play_drawn", seat=seat, card=card), inlined
        fields["pending"] = drawn = _new_state(Pending)
        set_pending_fields(drawn, {**_PLAY_DRAWN, "seat": seat, "card": card})
    else:
        direction = state.direction
        statuses = state.statuses
        nxt = (seat + direction) % state.players  # next_seat, inlined
        if statuses[nxt] != "playing":
            nxt = next_seat(state, seat)
        turn_data = {"seat": nxt, "direction": direction, "pending": None}
        fields["current"] = nxt
    new = _new_state(GameState)  # _made(fields), inlined
    _set_fields(new, fields)
    drew: CardsDrawnData = {"cards": [card], "reason": "draw"}
    return [
        {"type": "cards_drawn", "seat": seat, "data": drew},
        {"type": "turn_changed", "seat": None, "data": turn_data},
    ], new


def _quick_accept(
    state: GameState, seat: int, action: dict[str, Any]
) -> tuple[list[Event], GameState] | None:
    pending = state.pending
    if pending is None or pending.kind != "wild_draw4" or pending.seat != seat or len(action) != 1:
        return None  # (one field: "action" itself)
    if state.statuses[seat] != "playing":  # (a valid index: the pending seat's)
        return None
    amount = pending.amount
    pile = state.draw_pile
    if len(pile) < amount:
        return None
    drawn = pile[:amount]
    fields = _own_turn_fields(state, seat)
    hands = state.hands
    hand = hands[seat] + drawn
    fields["hands"] = (*hands[:seat], hand, *hands[seat + 1 :])
    fields["draw_pile"] = pile[amount:]
    if seat in state.uno and len(hand) != 1:
        fields["uno"] = state.uno - {seat}
    fields["catchable"] = _NO_SEATS
    fields["penalty_drawn"] = (seat, drawn)
    nxt = next_seat(state, seat)
    fields["current"] = nxt
    fields["pending"] = None
    taken: CardsDrawnData = {"cards": list(drawn), "reason": "take"}
    changed: TurnChangedData = {"seat": nxt, "direction": state.direction, "pending": None}
    events: list[Event] = [
        {"type": "cards_drawn", "seat": seat, "data": taken},
        {"type": "turn_changed", "seat": None, "data": changed},
    ]
    new = _new_state(GameState)  # _made(fields), inlined
    _set_fields(new, fields)
    return events, new


_new_state = object.__new__
_set_fields = set_state_fields
QuickMove = Callable[[GameState, int, dict[str, Any]], tuple[list[Event], GameState] | None]
_QUICK: dict[str, QuickMove] = {"play": _quick_play, "draw": _quick_draw, "accept": _quick_accept}
# act's one lookup per action: the handler, the fields the action may have, its quick path.
_MOVES: dict[
    str, tuple[Callable[[Turn, int, dict[str, Any]], None], frozenset[str], QuickMove | None]
] = {
    name: (handler, FIELDS.get(name, _BARE), _QUICK.get(name)) for name, handler in HANDLERS.items()
}


# The actions that close the UNO catch window (a timeout does too).
CLOSING = frozenset({"play", "draw", "pass", "challenge", "accept", "color"})


def _uno_auto_penalty(turn: Turn, before: GameState) -> None:
    """``uno_auto_penalty``: the seats the closed window left uncaught draw the penalty now."""
    state = turn.state
    if state.status != "active" or state.round_number != before.round_number:
        return
    for seat in sorted(before.catchable):
        if state.statuses[seat] == "playing" and state.hands[seat]:
            _draw(turn, seat, state.options.uno_penalty, "uno")


def decide(state: GameState, seat: int, action: dict[str, Any]) -> list[Event]:
    """The events that ``action`` by ``seat`` leads to; raises ``IllegalMove`` if refused."""
    return act(state, seat, action)[0]


def _charge(turn: Turn, before: GameState, mover: int | None, left: int | None) -> None:
    """The bank clock, once a write has handed on the turn: the seat that had to act keeps what
    was ``left`` of its bank and, when the move was its own, gains the increment up to the max;
    a timeout (``mover`` None) restarts its bank from the increment."""
    options = before.options
    if not options.bank or turn.state.status != "active":
        return
    seat = before.actor
    if turn.state.statuses[seat] == "forfeited":
        return
    if not any(item["type"] == "turn_changed" for item in turn.events):
        return
    had = before.banks[seat]
    if mover is None:
        bank = options.bank_increment
    else:
        kept = had if left is None else max(0, min(left, had))
        bank = min(options.bank_max, kept + options.bank_increment) if mover == seat else kept
    if bank != had:
        turn.emit("bank_changed", seat, {"bank": bank})


# --- the server's own actions ----------------------------------------------------------------


def _most_held_color(hand: Sequence[str]) -> str:
    counts = Counter(COLOR_OF[c] for c in hand)
    return max(COLORS, key=lambda color: (counts[color], -COLORS.index(color)))


def time_out(state: GameState, *, forfeit: bool = True) -> tuple[list[Event], GameState]:
    """The server acts for the seat that must act and did not in time (the "Time" section).

    ``forfeit`` False: the seat does not forfeit at its last timeout, for a bot plays on for it
    from its next turn (the service's ``bot_takeover``). This timeout is still one of its own
    (``timed_out`` and the move made for the seat), as every timeout is.
    """
    _check_active(state)
    turn = Turn(state)
    seat = state.actor
    count = state.timeouts[seat] + 1
    turn.emit("timed_out", seat, {"count": count})
    pending = state.pending
    if pending is None:
        _draw(turn, seat, 1, "draw", auto=True)
        _change_turn(turn, next_seat(turn.state, seat))
    elif pending.kind == "color":
        chosen = _most_held_color(state.hands[seat])
        turn.emit("color_chosen", seat, {"color": chosen, "auto": True})
        _change_turn(turn, seat)
    elif pending.kind == "play_drawn":
        turn.emit("passed", seat, {"auto": True})
        _change_turn(turn, next_seat(turn.state, seat))
    else:
        _take(turn, seat, pending.amount, auto=True)
    if forfeit and count >= state.options.max_timeouts and turn.state.status == "active":
        _forfeit(turn, seat, "timeout")
    if state.catchable and state.options.uno_auto_penalty:
        _uno_auto_penalty(turn, state)
    _charge(turn, state, None, 0)
    return turn.events, turn.state


def resign(
    state: GameState, seat: int, *, left: int | None = None
) -> tuple[list[Event], GameState]:
    """``seat`` leaves a started game for good, as a forfeit (``left`` as for ``act``)."""
    _check_active(state)
    _check_seat(state, seat)
    turn = Turn(state)
    _forfeit(turn, seat, "resign")
    _charge(turn, state, seat, left)
    return turn.events, turn.state


def take_over(
    state: GameState, seat: int, reason: Literal["timeout", "resign"]
) -> tuple[list[Event], GameState]:
    """``seat`` is played on by a bot where it would have forfeited (the service's
    ``bot_takeover``): after its last timeout (``time_out(forfeit=False)``) or its resignation.
    Who plays a seat changes none of the rules; the log records it so that a replay, a stream
    and an export tell when the player left."""
    _check_active(state)
    _check_seat(state, seat)
    turn = Turn(state)
    turn.emit("seat_taken_over", seat, {"reason": reason})
    return turn.events, turn.state


def _forfeit(turn: Turn, seat: int, reason: Literal["timeout", "resign"]) -> None:
    state = turn.state
    pile = list(state.draw_pile) + list(state.hands[seat])
    shuffle(_rng(state), pile)
    was_actor = state.actor == seat
    pending = state.pending
    turn.emit("forfeited", seat, {"reason": reason, "draw_pile": pile})
    state = turn.state
    remaining = [s for s in range(state.players) if state.statuses[s] != "forfeited"]
    teams = state.options.teams
    if len(remaining) == 1 or (teams and len({s % teams for s in remaining}) == 1):
        ended: GameEndedData = {"winner_seat": remaining[0], "reason": "forfeit"}
        if teams:
            ended["winner_team"] = remaining[0] % teams
        turn.emit("game_ended", None, ended)
        return
    if len(holders(state)) <= 1:  # elimination: the others have all gone out
        _end_round(turn, winner=state.out_order[0] if state.out_order else holders(state)[0])
        return
    if was_actor:
        nxt = next_seat(state, seat)
        # A starter wild still needs its colour: the next seat, now the first player, names it.
        naming = (
            make_pending(kind="color", seat=nxt) if pending and pending.kind == "color" else None
        )
        _change_turn(turn, nxt, pending=naming)
    elif pending is not None and pending.from_seat == seat and pending.kind == "wild_draw4":
        # A forfeited seat holds nothing to be challenged on: the draw four stands.
        _change_turn(
            turn,
            pending.seat,
            pending=make_pending(
                kind="draw_penalty",
                seat=pending.seat,
                amount=pending.amount,
                from_seat=seat,
                draw_card=WILD_DRAW4,
            ),
        )


# --- the end of a round and of the game ------------------------------------------------------


def round_points(options: Options, hands: Sequence[Sequence[str]], winner: int) -> list[int]:
    if options.teams:
        return _team_points(options, hands, winner)
    if options.scoring == "penalty":
        return [sum(map(POINTS.__getitem__, hand)) for hand in hands]
    points = [0] * len(hands)
    points[winner] = sum(map(POINTS.__getitem__, chain.from_iterable(hands)))
    return points


def _team_points(options: Options, hands: Sequence[Sequence[str]], winner: int) -> list[int]:
    """Every seat scores its team's points: the team's total is the score of each of its seats."""
    teams = options.teams
    held = [0] * teams
    for seat, hand in enumerate(hands):
        held[seat % teams] += sum(POINTS[c] for c in hand)
    if options.scoring == "penalty":
        return [held[seat % teams] for seat in range(len(hands))]
    won = sum(held) - held[winner % teams]
    return [won if seat % teams == winner % teams else 0 for seat in range(len(hands))]


def winner_team(state: GameState) -> int | None:
    """With teams: the team that has won once someone reached the target, else None."""
    teams = state.options.teams
    if not teams or max(state.scores) < state.options.target_score:
        return None
    totals = [state.scores[team] for team in range(teams)]
    if state.options.scoring == "penalty":
        return min(range(teams), key=lambda team: (totals[team], team))
    return min(range(teams), key=lambda team: (-totals[team], team))


def game_winner(state: GameState) -> int | None:
    """The seat that has won once someone reached the target, else None."""
    if max(state.scores) < state.options.target_score:
        return None
    seats = [s for s in range(state.players) if state.statuses[s] != "forfeited"]
    if state.options.scoring == "penalty":
        return min(seats, key=lambda s: (state.scores[s], s))
    return min(seats, key=lambda s: (-state.scores[s], s))


def _end_round(turn: Turn, winner: int) -> None:
    state = turn.state
    turn.emit(
        "round_ended",
        None,
        {
            "number": state.round_number,
            "winner_seat": winner,
            "points": round_points(state.options, state.hands, winner),
            "hands": list(map(list, state.hands)),
        },
    )
    state = turn.state
    champion = game_winner(state)
    if champion is not None:
        if state.options.teams:
            # winner_seat is the seat that went out last round; winner_team the team that won.
            team = winner_team(state)
            assert team is not None  # someone reached the target
            turn.emit(
                "game_ended", None, {"winner_seat": winner, "reason": "target", "winner_team": team}
            )
        else:
            turn.emit("game_ended", None, {"winner_seat": champion, "reason": "target"})
        return
    dealer = (state.dealer + 1) % state.players
    while state.statuses[dealer] == "forfeited":
        dealer = (dealer + 1) % state.players
    _start_round(turn, number=state.round_number + 1, dealer=dealer, deck=None)
