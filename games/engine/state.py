"""The frozen state of a whole game: seats, hands, piles, turn, the pending decision, scores.

States are immutable values to everyone outside the engine. ``evolve`` makes a changed copy
cheaply: the engine is the inner loop of every request, every replay and every search, so it
avoids ``dataclasses.replace`` and its per-field checks.

Inside the engine, folding a move's events (``rules.Turn``) or a whole log (``evolve.replay``)
writes into one *draft*: a fresh copy made by ``draft_of``, whose fields the appliers set in
place through ``fields_of``. A draft is not shared with anyone until it is returned, and never
written after: one copy per move (or per replay) instead of one per event.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from games.engine.options import Options
from games.engine.shapes import Direction

SeatStatus = Literal["playing", "forfeited", "out"]
GameStatus = Literal["active", "finished"]
PendingKind = Literal["color", "play_drawn", "wild_draw4", "draw_penalty"]


@dataclass(frozen=True)
class Pending:
    """A decision the game waits for from one seat before play goes on.

    - ``color``: the first player names the colour of a starter wild.
    - ``play_drawn``: ``card`` was just drawn and is playable: play it, or keep it and pass.
    - ``wild_draw4``: a wild-draw4 was played on ``seat``: challenge or accept (or stack on it).
    - ``draw_penalty``: with ``stacking``, ``amount`` cards are owed by ``seat``: stack or draw.
    """

    kind: PendingKind
    seat: int
    card: str | None = None
    amount: int = 0
    from_seat: int | None = None
    previous_color: str | None = None
    draw_card: str | None = None  # the kind of the last draw card played: draw2 or wild-draw4


@dataclass(frozen=True)
class RoundResult:
    number: int
    winner_seat: int | None
    points: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class GameState:
    players: int
    options: Options
    seed: int
    status: GameStatus
    round_number: int
    dealer: int
    hands: tuple[tuple[str, ...], ...]
    statuses: tuple[SeatStatus, ...]
    scores: tuple[int, ...]
    timeouts: tuple[int, ...]
    uno: frozenset[int]
    catchable: frozenset[int]
    draw_pile: tuple[str, ...]  # index 0 is the top card
    discard_pile: tuple[str, ...]  # the last item is the top card
    color: str | None
    direction: Direction
    current: int
    pending: Pending | None
    shuffles: int  # how many random choices the game has made: the key of the next one
    penalty_drawn: tuple[int, tuple[str, ...]] | None  # (seat, cards) of the latest penalty
    out_order: tuple[int, ...]  # elimination: the seats that went out this round, in order
    last_round: RoundResult | None
    winner: int | None
    given_deck: bool  # the current round was dealt from a deck given at creation
    winner_team: int | None = None  # with teams: the team that won the game
    # The game's secret salt (hex), mixed with the seed into every shuffle: a seed known to
    # someone predicts no deck. Empty for games begun before fair decks (docs/fairness.md).
    salt: str = ""
    # The bank clock: each seat's seconds left as of its last move (empty with the move clock).
    banks: tuple[int, ...] = ()

    @property
    def top_card(self) -> str | None:
        return self.discard_pile[-1] if self.discard_pile else None

    @property
    def actor(self) -> int:
        """The seat whose move the game waits for."""
        pending = self.pending
        return self.current if pending is None else pending.seat

    def evolve(self, **changes: Any) -> GameState:
        data = self.__dict__.copy()
        data.update(changes)
        new = _new(GameState)
        set_state_fields(new, data)
        return new


_new = object.__new__
# Set an instance's fields at once: ``object.__setattr__(obj, "__dict__", fields)``, through the
# class's own ``__dict__`` descriptor (what that call looks up first, once per call).
set_state_fields: Callable[[GameState, dict[str, Any]], None] = vars(GameState)["__dict__"].__set__
set_pending_fields: Callable[[Pending, dict[str, Any]], None] = vars(Pending)["__dict__"].__set__
_set_result_fields: Callable[[RoundResult, dict[str, Any]], None] = vars(RoundResult)[
    "__dict__"
].__set__


def draft_of(state: GameState | None) -> GameState:
    """A copy of ``state`` (an empty one for ``None``) for the engine to write with ``fields_of``.

    The caller owns it: it writes it while folding events, then hands it out and never writes it
    again. An empty draft holds no field until a ``game_started`` event is written into it.
    """
    new = _new(GameState)
    set_state_fields(new, {} if state is None else state.__dict__.copy())
    return new


def fields_of(draft: GameState) -> dict[str, Any]:
    """The fields of a draft, to set in place (only on a draft from ``draft_of``)."""
    return draft.__dict__


def make_pending(
    kind: PendingKind,
    seat: int,
    card: str | None = None,
    amount: int = 0,
    from_seat: int | None = None,
    previous_color: str | None = None,
    draw_card: str | None = None,
) -> Pending:
    """``Pending(...)`` without the frozen dataclass's per-field ``object.__setattr__``."""
    new = _new(Pending)
    set_pending_fields(
        new,
        {
            "kind": kind,
            "seat": seat,
            "card": card,
            "amount": amount,
            "from_seat": from_seat,
            "previous_color": previous_color,
            "draw_card": draw_card,
        },
    )
    return new


def make_round_result(
    number: int,
    winner_seat: int | None,
    points: tuple[int, ...],
    hands: tuple[tuple[str, ...], ...],
) -> RoundResult:
    """``RoundResult(...)`` without the frozen dataclass's per-field ``object.__setattr__``."""
    new = _new(RoundResult)
    _set_result_fields(
        new,
        {"number": number, "winner_seat": winner_seat, "points": points, "hands": hands},
    )
    return new


def initial_state(players: int, options: Options, seed: int, salt: str = "") -> GameState:
    return GameState(
        players=players,
        options=options,
        seed=seed,
        status="active",
        round_number=0,
        dealer=players - 1,
        hands=((),) * players,
        statuses=tuple("playing" for _ in range(players)),
        scores=(0,) * players,
        timeouts=(0,) * players,
        uno=frozenset(),
        catchable=frozenset(),
        draw_pile=(),
        discard_pile=(),
        color=None,
        direction=1,
        current=0,
        pending=None,
        shuffles=0,
        penalty_drawn=None,
        out_order=(),
        last_round=None,
        winner=None,
        given_deck=False,
        salt=salt,
        banks=(options.bank_initial,) * players if options.bank else (),
    )
