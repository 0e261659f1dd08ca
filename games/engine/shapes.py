"""One definition per event type and per part of the game view: the shapes everything else reads.

Each event type's ``data`` is a ``TypedDict`` here, listed in ``EVENT_DATA``. From these:

- ``evolve`` registers one applier per type (and checks that every type has one);
- ``views.event_view`` leaves out, per viewer, the fields marked ``Hidden`` and adds the fields
  marked ``CountOf`` / ``DealtHand`` (they exist only in what a viewer sees, never in the log);
- ``games.event_schema`` derives the OpenAPI components.

The view parts (``SeatView``, ``Round``, ``You``, ``LastRound``, ``Settings``, ...) are defined
here too, so that the engine's ``view``, the server's waiting view and the schema share them.

Changing a shape means changing its definition here (and its tests). The stored log is what the
engine wrote: a field's definition may only be added as optional, never renamed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    Final,
    Literal,
    NotRequired,
    TypedDict,
    TypeVar,
    get_args,
    get_origin,
    get_type_hints,
)

from games.engine.cards import COLORS, DECK
from games.engine.options import RULES

# --- markers read from the annotations ------------------------------------------------------


@dataclass(frozen=True)
class Enum:
    """A string from a fixed set, one named component in the schema."""

    component: str
    values: tuple[str, ...]


@dataclass(frozen=True)
class Doc:
    """What the field means, for the schema's readers."""

    text: str


@dataclass(frozen=True)
class Format:
    """The string format of the schema (``uuid``, ``date-time``)."""

    name: str


@dataclass(frozen=True)
class Ref:
    """A shape the API layer defines (the actions): named, not derived, here."""

    component: str


@dataclass(frozen=True)
class Hidden:
    """Left out of what a viewer sees until the game is finished.

    ``shown_to`` names fields whose seat does see it: ``"seat"`` is the seat of the object the
    field belongs to (the event's seat for event data), any other name a field of that object.
    """

    shown_to: tuple[str, ...] = ()


@dataclass(frozen=True)
class CountOf:
    """Only in what viewers see: the number of cards in the stored list ``field``.

    Never in the log, so the field is ``NotRequired`` (the engine builds the log's data from the
    definition); every view has it, so the schema requires it.
    """

    field: str


@dataclass(frozen=True)
class DealtHand:
    """Only in what a seat sees of ``round_started``: its own seven dealt cards."""


CARD_CODES_SORTED: Final = tuple(sorted(set(DECK)))
Card = Annotated[str, Enum("CardEnum", CARD_CODES_SORTED)]
Color = Annotated[str, Enum("ColorEnum", COLORS)]
Direction = Literal[1, -1]
SeatStatus = Literal["playing", "forfeited", "out"]
DrawReason = Literal["draw", "take", "penalty", "starter", "caught", "bluff", "challenge", "uno"]
SECRET: Final = Hidden()


# --- the pending decision: one union on ``type`` ---------------------------------------------


class ColorPending(TypedDict):
    """The first seat names the colour of a starter wild."""

    type: Literal["color"]
    seat: Annotated[int, Doc("The seat the game waits for.")]


class PlayDrawnPending(TypedDict):
    """``card`` was just drawn and is playable: play it, or keep it and pass."""

    type: Literal["play_drawn"]
    seat: Annotated[int, Doc("The seat the game waits for.")]
    card: Annotated[Card, Hidden(shown_to=("seat",)), Doc("The card drawn.")]


class WildDraw4Pending(TypedDict):
    """A wild-draw4 was played on ``seat``: challenge, accept (or stack on it)."""

    type: Literal["wild_draw4"]
    seat: Annotated[int, Doc("The seat the game waits for.")]
    amount: Annotated[int, Doc("Cards owed.")]
    from_seat: Annotated[int, Doc("The seat that played the wild-draw4.")]
    previous_color: Annotated[Color, Doc("The colour before the wild-draw4.")]
    draw_card: Card


class DrawPenaltyPending(TypedDict):
    """With ``stacking``, ``amount`` cards are owed by ``seat``: stack or draw."""

    type: Literal["draw_penalty"]
    seat: Annotated[int, Doc("The seat the game waits for.")]
    amount: Annotated[int, Doc("Cards owed.")]
    from_seat: int
    draw_card: Annotated[Card, Doc("The kind of the last draw card played.")]


@dataclass(frozen=True)
class OneOf:
    """A union of object shapes told apart by the one-value field ``on``."""

    component: str
    on: str
    members: tuple[type, ...]


PENDING_KINDS: Final[dict[str, type]] = {
    "color": ColorPending,
    "play_drawn": PlayDrawnPending,
    "wild_draw4": WildDraw4Pending,
    "draw_penalty": DrawPenaltyPending,
}
Pending = Annotated[dict[str, Any], OneOf("Pending", "type", tuple(PENDING_KINDS.values()))]


# --- event data, one per type -------------------------------------------------------------------


class GameStartedData(TypedDict):
    players: int
    options: Annotated[dict[str, Any], Doc("target_score, max_timeouts and the house rules.")]
    seed: Annotated[int, SECRET]
    salt: NotRequired[
        Annotated[
            str,
            SECRET,
            Doc(
                "32 random bytes in hex, mixed with the seed into every shuffle (docs/fairness.md)."
            ),
        ]
    ]


class RoundStartedData(TypedDict):
    number: int
    dealer: int
    seats: Annotated[list[int], Doc("The deal order, first player first.")]
    deck: Annotated[list[Card], SECRET, Doc("The whole deck, top first.")]
    given: NotRequired[Annotated[bool, Doc("Dealt from a deck given at creation.")]]
    hand: NotRequired[Annotated[list[Card], DealtHand(), Doc("The viewer's own 7 dealt cards.")]]


class StarterReturnedData(TypedDict):
    card: Annotated[Card, Doc("A wild-draw4 turned as starter goes back.")]
    position: Annotated[int, SECRET, Doc("Where in the draw pile it went.")]


class StarterTurnedData(TypedDict):
    card: Card


class TurnChangedData(TypedDict):
    seat: Annotated[int, Doc("The seat that must act now.")]
    direction: Direction
    pending: Pending | None


class CardPlayedData(TypedDict):
    cards: Annotated[list[Card], Doc("The cards played, the last on top.")]
    color: Annotated[Color, Doc("The colour in play after this card.")]
    uno: bool
    target: NotRequired[
        Annotated[int, Doc("The swap target: a 7 of seven_zero, a 0 of zero_swap.")]
    ]
    jump_in: NotRequired[bool]
    auto: NotRequired[Annotated[bool, Doc("The server played on a timeout.")]]


class CardsDrawnData(TypedDict):
    cards: Annotated[list[Card], Hidden(shown_to=("seat",))]
    reason: DrawReason
    auto: NotRequired[Annotated[bool, Doc("The server drew on a timeout.")]]
    count: NotRequired[Annotated[int, CountOf("cards")]]


class ColorDiscardedData(TypedDict):
    """zero_discards_color: the other cards of the played 0's colour go under it, face up."""

    cards: Annotated[list[Card], Doc("The cards discarded from the hand, put under the top card.")]
    uno: Annotated[bool, Doc("The play said UNO (it leaves one card).")]


class CardsGivenData(TypedDict):
    """two_gives: the player of a 2 gives cards of their hand to ``target``."""

    target: Annotated[int, Doc("The seat that receives the cards.")]
    cards: Annotated[list[Card], Hidden(shown_to=("seat", "target")), Doc("The cards given.")]
    uno: Annotated[bool, Doc("The play said UNO (the gift leaves one card).")]
    count: NotRequired[Annotated[int, CountOf("cards")]]


class PileReshuffledData(TypedDict):
    draw_pile: Annotated[list[Card], SECRET, Doc("The new order, top first.")]
    draw_pile_count: NotRequired[Annotated[int, CountOf("draw_pile")]]


class PassedData(TypedDict):
    auto: NotRequired[bool]


class ChallengedData(TypedDict):
    target: Annotated[int, Doc("The seat that played the wild-draw4.")]
    guilty: bool
    hand: Annotated[list[Card], Hidden(shown_to=("seat", "target")), Doc("The challenged hand.")]
    color: Annotated[Color, Doc("The colour before the wild-draw4.")]


class ColorChosenData(TypedDict):
    color: Color
    auto: NotRequired[bool]


class UnoSaidData(TypedDict):
    pass


class UnoCaughtData(TypedDict):
    target: int


class HandsSwappedData(TypedDict):
    target: int


class HandsRotatedData(TypedDict):
    direction: Direction


class TimedOutData(TypedDict):
    count: Annotated[int, Doc("Consecutive timeouts of the seat.")]


class BankChangedData(TypedDict):
    """The bank clock: what ``seat``'s bank holds after the move that handed on its turn (its
    time used taken off, its increment added up to the max) or after a timeout (the
    increment)."""

    bank: Annotated[int, Doc("Seconds left in the seat's bank.")]


class WentOutData(TypedDict):
    pass


class ForfeitedData(TypedDict):
    reason: Literal["timeout", "resign"]
    draw_pile: Annotated[list[Card], SECRET, Doc("The new order, top first.")]
    draw_pile_count: NotRequired[Annotated[int, CountOf("draw_pile")]]


class SeatTakenOverData(TypedDict):
    """``bot_takeover``: a bot plays on for the seat from here, where it would have forfeited."""

    reason: Literal["timeout", "resign"]


class RoundEndedData(TypedDict):
    number: int
    winner_seat: int | None
    points: Annotated[list[int], Doc("Points scored, by seat.")]
    hands: Annotated[
        list[list[Card]],
        Doc(
            "Every hand at scoring, revealed: item i is seat i's hand. The log keeps a list; "
            "the game view's last_round.hands keys the same hands by seat number."
        ),
    ]


class GameEndedData(TypedDict):
    winner_seat: int
    reason: Literal["target", "forfeit"]
    winner_team: NotRequired[Annotated[int, Doc("With teams: the team that won the game.")]]


EVENT_DATA: Final[dict[str, type]] = {
    "game_started": GameStartedData,
    "round_started": RoundStartedData,
    "starter_returned": StarterReturnedData,
    "starter_turned": StarterTurnedData,
    "turn_changed": TurnChangedData,
    "card_played": CardPlayedData,
    "cards_drawn": CardsDrawnData,
    "color_discarded": ColorDiscardedData,
    "cards_given": CardsGivenData,
    "pile_reshuffled": PileReshuffledData,
    "passed": PassedData,
    "challenged": ChallengedData,
    "color_chosen": ColorChosenData,
    "uno_said": UnoSaidData,
    "uno_caught": UnoCaughtData,
    "hands_swapped": HandsSwappedData,
    "hands_rotated": HandsRotatedData,
    "timed_out": TimedOutData,
    "bank_changed": BankChangedData,
    "went_out": WentOutData,
    "forfeited": ForfeitedData,
    "seat_taken_over": SeatTakenOverData,
    "round_ended": RoundEndedData,
    "game_ended": GameEndedData,
}
"""Event type -> the shape of its ``data``. ``seat`` is the seat the event happened to or was done
by (``None`` for the table as a whole)."""


# --- the game view, part by part ------------------------------------------------------------------


BOT_LEVELS: Final = ("random", "basic", "strong")
"""The bot levels of the API (``games.engine.bots.LEVELS`` plays them)."""


class PlayerRef(TypedDict):
    id: int
    username: str


if TYPE_CHECKING:
    Rules = dict[str, Any]  # to mypy: the rules are read from options.RULES at run time
else:
    Rules = TypedDict("Rules", {rule.name: rule.hint for rule in RULES})
    Rules.__doc__ = "House rules (see the rule book); every member is always sent."
"""Every house rule of ``options.Options``, with its type: the game's ``rules`` object."""


class MoveClock(TypedDict):
    """Each turn has ``turn_timeout`` seconds."""

    type: Literal["move"]


class BankClock(TypedDict):
    """Each seat has a time bank that runs down only while it must act."""

    type: Literal["bank"]
    initial: Annotated[int, Doc("Seconds in each seat's bank at the start.")]
    increment: Annotated[int, Doc("Seconds a seat gains after each of its moves.")]
    max: Annotated[int, Doc("The most a bank holds.")]


CLOCKS: Final[dict[str, type]] = {"move": MoveClock, "bank": BankClock}
Clock = Annotated[dict[str, Any], OneOf("Clock", "type", tuple(CLOCKS.values()))]


class Settings(TypedDict):
    max_players: int
    target_score: int
    turn_timeout: Annotated[int, Doc("Seconds a seat has to act (the move clock).")]
    clock: Clock
    max_timeouts: Annotated[int, Doc("Consecutive timeouts before a forfeit.")]
    teams: NotRequired[Annotated[int, Doc("Partners: 2 or 3 teams, seat % teams (no teams).")]]
    rules: Rules
    bot_takeover: NotRequired[
        Annotated[bool, Doc("Sent when true: a forfeiting seat is played by a bot.")]
    ]
    private: NotRequired[
        Annotated[bool, Doc("Sent when true: seen by its seated players only, joined by code.")]
    ]
    spectator_chat: NotRequired[
        Annotated[bool, Doc("Sent when true: spectators chat, in a channel of their own.")]
    ]
    bots_welcome: NotRequired[
        Annotated[
            bool,
            Doc(
                "Sent when true: bot accounts (players' programs) may take a seat themselves "
                "(join, quick match)."
            ),
        ]
    ]


class SeatView(TypedDict):
    seat: int
    player: PlayerRef
    hand_count: int
    score: int
    uno: Annotated[bool, Doc("Said UNO and holds one card.")]
    catchable: Annotated[bool, Doc("Holds one card without saying UNO: catch it.")]
    status: Annotated[SeatStatus, Enum("SeatStatusEnum", ("playing", "forfeited", "out"))]
    timeouts: Annotated[int, Doc("Consecutive timeouts so far.")]
    bank: NotRequired[
        Annotated[int, Doc("The bank clock: seconds left in the seat's bank as of its last move.")]
    ]
    on_vacation_until: NotRequired[
        Annotated[str, Format("date-time"), Doc("Sent while the seat's player is on vacation.")]
    ]
    team: NotRequired[Annotated[int, Doc("With teams: the seat's team, seat % teams.")]]
    hand: NotRequired[Annotated[list[Card], Doc("Finished games only.")]]
    bot: NotRequired[
        Annotated[
            str,
            Enum("BotLevelEnum", BOT_LEVELS),
            Doc("The level of the bot that plays the seat."),
        ]
    ]
    bot_account: NotRequired[
        Annotated[bool, Doc("Sent when true: a bot account's program plays the seat.")]
    ]


class Round(TypedDict):
    number: int
    dealer: int
    current_seat: int
    direction: Direction
    top_card: Card | None
    color: Color | None
    draw_pile: Annotated[int, Doc("Cards in the draw pile.")]
    discard_pile: Annotated[int, Doc("Cards in the discard pile.")]
    pending: Pending | None
    turn_deadline: NotRequired[Annotated[str, Format("date-time")] | None]
    bank_runs_out_at: NotRequired[
        Annotated[
            Annotated[str, Format("date-time")] | None,
            Doc("The bank clock: when the bank of the seat that must act runs out."),
        ]
    ]


class You(TypedDict):
    seat: int
    hand: list[Card]
    legal_actions: Annotated[
        list[Annotated[dict[str, Any], Ref("Action")]],
        Doc("Every action the server accepts from you now; send one back as it is."),
    ]


class LastRound(TypedDict):
    number: int
    winner_seat: int | None
    points: Annotated[list[int], Doc("Points scored, by seat.")]
    hands: Annotated[
        dict[str, list[Card]],
        Doc(
            'Every hand at scoring, keyed by seat number ("0", "1", ...): the same hands as '
            "the round_ended event's data.hands, which lists them in seat order."
        ),
    ]


class Revealed(TypedDict):
    draw_pile: list[Card]
    seed: int


class PlayView(TypedDict):
    """What the engine's ``view`` returns (the server adds the game's own fields)."""

    status: Literal["active", "finished"]
    seats: list[SeatView]
    round: Round | None
    you: You | None
    last_round: LastRound | None
    winner_seat: int | None
    winner_team: NotRequired[Annotated[int | None, Doc("With teams: the team that won.")]]
    revealed: NotRequired[Annotated[Revealed, Doc("Finished games only.")]]


GAME_STATUSES: Final = ("waiting", "active", "finished", "abandoned")


Hash = Annotated[str, Doc("64 hex digits (SHA-256).")]
DeckCommitment = Annotated[
    Hash | None,
    Doc(
        'sha256(f"{seed}:{salt}") in hex, fixed when the game is created, before the first deal: '
        "the finished game reveals the seed and salt to check it against (docs/fairness.md). "
        "Null for games begun before fair decks."
    ),
]
RevealedSeed = Annotated[int, Doc("Finished games only: the seed every shuffle followed.")]
RevealedSalt = Annotated[
    str | None,
    Doc(
        "Finished games only: the secret salt (32 bytes in hex) mixed with the seed into every "
        "shuffle; null for games begun before fair decks."
    ),
]


class GameView(TypedDict):
    """One game as the caller may see it: the engine's ``PlayView`` and the game's own fields."""

    id: Annotated[str, Format("uuid")]
    status: Annotated[str, Enum("GameStatusEnum", GAME_STATUSES)]
    version: Annotated[int, Doc("The seq of the last event.")]
    settings: Settings
    deck_commitment: DeckCommitment
    seed: NotRequired[RevealedSeed]
    salt: NotRequired[RevealedSalt]
    created_by: NotRequired[int]
    created_at: NotRequired[Annotated[str, Format("date-time")]]
    seats: list[SeatView]
    round: Round | None
    you: You | None
    last_round: LastRound | None
    winner_seat: int | None
    winner_team: NotRequired[Annotated[int | None, Doc("With teams: the team that won.")]]
    revealed: NotRequired[Annotated[Revealed, Doc("Finished games only.")]]
    invite_code: NotRequired[
        Annotated[
            str,
            Doc(
                "A private game's code, shown to its seated players: POST "
                "/api/v1/games/join-by-code/ takes a seat with it."
            ),
        ]
    ]
    rematch: NotRequired[
        Annotated[
            str,
            Format("uuid"),
            Doc("Once a player asked for a rematch (POST .../rematch/): the new game's id."),
        ]
    ]
    bots_fill_at: NotRequired[
        Annotated[
            str,
            Format("date-time"),
            Doc(
                "A waiting game of quick match with `fill_with_bots_after`: when `basic` bots "
                "take its free seats and it starts."
            ),
        ]
    ]


class ExportedSeat(TypedDict):
    seat: int
    player: PlayerRef
    score: int
    status: Annotated[SeatStatus, Enum("SeatStatusEnum", ("playing", "forfeited", "out"))]
    team: NotRequired[Annotated[int, Doc("With teams: the seat's team, seat % teams.")]]
    bot: NotRequired[Annotated[str, Enum("BotLevelEnum", BOT_LEVELS)]]
    bot_account: NotRequired[Annotated[bool, Doc("Sent when true: a bot account's seat.")]]


class ExportedEvent(TypedDict):
    """One event exactly as the log stores it: every field revealed, nothing derived."""

    seq: int
    type: Annotated[str, Enum("EventTypeEnum", tuple(EVENT_DATA))]
    seat: int | None
    at: Annotated[str, Format("date-time")]
    data: Annotated[
        dict[str, Any],
        Doc(
            "The data of the event type's component (the event log's), every hidden field "
            "present and without the fields only viewers see (count, draw_pile_count, hand)."
        ),
    ]
    hash: Annotated[
        Hash,
        Doc(
            "sha256(previous event's hash + canonical JSON of seq, type, seat and data) in hex; "
            "the first event's previous hash is 64 zeros (docs/fairness.md)."
        ),
    ]


class GameExport(TypedDict):
    """A finished game as one document: what a replay viewer, an analysis tool and
    ``manage.py verify_game`` read (docs/fairness.md)."""

    id: Annotated[str, Format("uuid")]
    settings: Settings
    seats: list[ExportedSeat]
    events: Annotated[list[ExportedEvent], Doc("Every event of the game, in seq order.")]
    seed: RevealedSeed
    salt: RevealedSalt
    deck_commitment: DeckCommitment
    winner_seat: int | None


def seat_view(seat: int, player: PlayerRef | None) -> SeatView:
    """A seat before the first deal: no cards, no score."""
    return {
        "seat": seat,
        "player": player,  # type: ignore[typeddict-item]  # None only for a seat with no roster row
        "hand_count": 0,
        "score": 0,
        "uno": False,
        "catchable": False,
        "status": "playing",
        "timeouts": 0,
    }


def you_view(seat: int, hand: list[str], legal_actions: list[dict[str, Any]]) -> You:
    return {"seat": seat, "hand": hand, "legal_actions": legal_actions}


# --- reading the definitions --------------------------------------------------------------------


@dataclass(frozen=True)
class Field:
    """One field of a definition: its type with the markers taken off, and the markers."""

    name: str
    hint: Any
    required: bool
    markers: tuple[object, ...]

    def marker(self, kind: type[_M]) -> _M | None:
        return next((m for m in self.markers if isinstance(m, kind)), None)


_M = TypeVar("_M")


def unwrap(hint: Any) -> tuple[Any, tuple[object, ...]]:
    """``hint`` without ``NotRequired`` and ``Annotated``, and the ``Annotated`` markers."""
    markers: tuple[object, ...] = ()
    while True:
        origin = get_origin(hint)
        if origin is NotRequired:
            hint = get_args(hint)[0]
        elif origin is Annotated:
            hint, *extra = get_args(hint)
            markers += tuple(extra)
        else:
            return hint, markers


def fields_of(shape: type) -> tuple[Field, ...]:
    # Read from the annotations, not ``__required_keys__``: with postponed annotations (this
    # module's ``from __future__``) Python 3.11 counts a NotRequired field as required.
    hints = get_type_hints(shape, include_extras=True)
    result = []
    for name, hint in hints.items():
        bare, markers = unwrap(hint)
        result.append(Field(name, bare, get_origin(hint) is not NotRequired, markers))
    return tuple(result)


def kind_of(member: type, on: str) -> str:
    """The one value of the ``Literal`` field ``on`` that tells ``member`` apart in its union."""
    field = next(f for f in fields_of(member) if f.name == on)
    (value,) = get_args(field.hint)
    return str(value)
