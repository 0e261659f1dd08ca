"""The house-rule options of the rule book, their defaults, and the check that they make sense.

All house rules are off by default; a game's ``rules`` object turns them on. Unknown options and
combinations that make no sense are refused when the game is created: the ones the rule book
refuses (``REFUSED``, teams with ``elimination``) and ``reverse_bounce`` without ``stacking``,
which the rule book gives only "with `stacking`" (there would be no penalty to bounce).

``Options`` is the one definition of a house rule: a field made by ``rule`` (its name, type,
default, bound from ``engine.limits`` and help text). ``RULES`` reads them; from it come the
check of ``make_options``, the API's rules serializer (``games.serializers.RulesSerializer``, so
the schema's request shape), the game view's ``shapes.Rules`` and the ``house`` preset.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Literal, NamedTuple, TypeVar, get_args, get_origin, get_type_hints

from games.engine.errors import IllegalMove
from games.engine.limits import (
    BANK_INCREMENT,
    BANK_INITIAL,
    BANK_MAX,
    BLUFF_PENALTY,
    MAX_TIMEOUTS,
    TARGET_SCORE,
    TEAMS,
    UNO_PENALTY,
    Bound,
)

Scoring = Literal["winner", "penalty"]
_T = TypeVar("_T")


@dataclass(frozen=True)
class Rule:
    """What ``Options`` tells of a house rule beyond its type and default (``rule``)."""

    help: str | None  # for the API's readers (the request's rules object)
    bound: Bound | None  # a number's range


def rule(default: _T, help: str | None = None, bound: Bound | None = None) -> _T:
    """An ``Options`` field that is a house rule: every game's ``rules`` object has it, and
    every request may set it. A number has a ``bound``; a string, a ``Literal`` type."""
    return field(default=default, metadata={Rule: Rule(help, bound)})


@dataclass(frozen=True)
class Options:
    """Everything a game is created with that changes how it is played."""

    target_score: int = 500
    max_timeouts: int = 3
    scoring: Scoring = rule("winner")  # noqa: RUF009 (a str: immutable, as the others are)
    stacking: bool = rule(False)
    reverse_bounce: bool = rule(False, "Needs stacking.")
    draw_until_playable: bool = rule(False)
    force_play: bool = rule(False)
    jump_in: bool = rule(False)
    seven_zero: bool = rule(False)
    multi_play: bool = rule(False)
    no_action_finish: bool = rule(False)
    elimination: bool = rule(False)
    uno_penalty: int = rule(2, bound=UNO_PENALTY)
    bluff_penalty: int = rule(4, bound=BLUFF_PENALTY)
    # The second set of the rule book, and any rule added after it. Stored in a log only when on
    # (``to_data``), so the logs written before these options existed stay what they were.
    eight_again: bool = rule(False, "An 8 on top: play again.")
    two_gives: bool = rule(False, "A 2 gives up to two cards away.")
    one_rotates: bool = rule(False, "A 1 passes every hand on.")
    zero_swap: bool = rule(False, "A 0 may swap hands with a target. Not with seven_zero.")
    zero_discards_color: bool = rule(
        False, "A 0 (the 1 with zero_swap) discards the rest of its colour from the hand."
    )
    color_runs: bool = rule(False, "Play runs of one colour.")
    action_on_action: bool = rule(False, "No different action card on a skip, reverse or draw2.")
    no_wild_finish: bool = rule(False, "No going out on a wild. Not with no_action_finish.")
    must_play: bool = rule(False, "No drawing with a playable card.")
    number_starter: bool = rule(False, "The starter is a number.")
    uno_auto_penalty: bool = rule(False, "An unsaid UNO is penalised when the catch window closes.")
    # A game setting beside the house rules: partners, the seat's team is seat % teams (0: none).
    teams: int = 0
    # The bank clock (seconds; 0: the move clock, ``turn_timeout``, which the engine never sees).
    bank_initial: int = 0
    bank_increment: int = 0
    bank_max: int = 0

    @property
    def bank(self) -> bool:
        """Each seat has a time bank (the rule book's "Clocks for correspondence play")."""
        return self.bank_initial > 0

    def team_of(self, seat: int) -> int | None:
        return seat % self.teams if self.teams else None

    # Read on every move: derived once per Options in __post_init__ (``dataclasses.replace``
    # makes them again), as plain fields of the instance: an attribute a class-level descriptor
    # such as ``cached_property`` shadows is read by Python's generic lookup, several times slower
    # than a specialized one. init=False and compare=False: no one passes them, eq and hash ignore
    # them, and to_data and the rule names leave them out (``_OPTION_NAMES``).
    # discarding_rank: the number whose play discards the rest of its colour
    # (``zero_discards_color``).
    discarding_rank: str | None = field(init=False, repr=False, compare=False)
    # plain_plays: whether a card's play is listed as itself alone, or once per colour for a wild
    # (plus the ``uno`` variant when it leaves one card): no rule adds targets or forbids going
    # out on it, and no card discards others with it.
    plain_plays: bool = field(init=False, repr=False, compare=False)
    # simple_moves: whether ``rules`` may decide a number, skip, reverse or wild play that does
    # not go out, and a draw, by its short path (``rules.quick_move``): no rule on here changes
    # them.
    simple_moves: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        derived = self.__dict__  # a frozen dataclass: written as its own __init__ would
        derived["discarding_rank"] = (
            ("1" if self.zero_swap else "0") if self.zero_discards_color else None
        )
        plain = not (
            self.seven_zero
            or self.zero_swap
            or self.zero_discards_color
            or self.no_action_finish
            or self.no_wild_finish
        )
        derived["plain_plays"] = plain
        derived["simple_moves"] = plain and not (
            self.eight_again
            or self.one_rotates
            or self.action_on_action
            or self.uno_auto_penalty
            or self.must_play
            or self.draw_until_playable
            or self.bank  # a move charges the seat's bank (rules._charge)
        )

    def rules(self) -> dict[str, Any]:
        """The house-rule part, as the game's ``rules`` object."""
        return {name: getattr(self, name) for name in HOUSE_RULES}

    def to_data(self) -> dict[str, Any]:
        # Every option is a scalar: no need for asdict's deep copy, which is slow (a snapshot
        # of the state is written on every action). The options added after the first logs
        # were written appear only when they differ from their default.
        data = {name: getattr(self, name) for name in _FIRST_OPTIONS}
        for name in _LATER_OPTIONS:
            value = getattr(self, name)
            if value != getattr(_DEFAULTS, name):
                data[name] = value
        return data


_OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Options) if f.init)
_FIRST_OPTIONS: tuple[str, ...] = _OPTION_NAMES[: _OPTION_NAMES.index("eight_again")]
_LATER_OPTIONS: tuple[str, ...] = _OPTION_NAMES[len(_FIRST_OPTIONS) :]


@dataclass(frozen=True)
class HouseRule:
    """One house rule as ``Options`` defines it."""

    name: str
    hint: Any  # bool, int, or a Literal of strings
    default: Any
    help: str | None
    bound: Bound | None

    @property
    def choices(self) -> tuple[str, ...] | None:
        """A string rule's values (its ``Literal``), else None."""
        return get_args(self.hint) if get_origin(self.hint) is Literal else None


def _house_rules() -> tuple[HouseRule, ...]:
    hints = get_type_hints(Options)
    found = []
    for f in fields(Options):
        about = f.metadata.get(Rule)
        if about is None:
            continue
        found.append(HouseRule(f.name, hints[f.name], f.default, about.help, about.bound))
        kind = found[-1]
        if kind.hint is int:
            assert kind.bound is not None and kind.bound.name == kind.name, kind
        else:
            assert kind.bound is None and (kind.hint is bool or kind.choices), kind
    return tuple(found)


RULES: tuple[HouseRule, ...] = _house_rules()
"""Every house rule, in the order of ``Options``: the request's and the view's order."""
HOUSE_RULES: tuple[str, ...] = tuple(r.name for r in RULES)
_BOOLEAN_RULES = tuple(r.name for r in RULES if r.hint is bool)
_CHOICE_RULES = tuple(r for r in RULES if r.choices)
_BOUNDS = tuple(r.bound for r in RULES if r.bound is not None)
_DEFAULTS = Options()

# The combinations the rule book refuses: (options all on together, why).
REFUSED: tuple[tuple[tuple[str, ...], str], ...] = (
    (("zero_swap", "seven_zero"), "seven_zero gives the 0 another meaning"),
    (("no_wild_finish", "no_action_finish"), "no_action_finish already forbids it"),
    (
        ("zero_swap", "zero_discards_color", "one_rotates"),
        "with zero_swap the discarding moves to the 1, which one_rotates already gives a meaning",
    ),
)

# The presets of game creation: the house rules each turns on (explicit rules override them).
# ``house`` is every house rule that combines with all the others: the ones of a refused
# combination are left out (the game's creator turns on the one of them they want).
_IN_REFUSED = {name for names, _ in REFUSED for name in names}
PRESETS: dict[str, dict[str, Any]] = {
    "official": {},
    "party": {
        "stacking": True,
        "jump_in": True,
        "seven_zero": True,
        "draw_until_playable": True,
    },
    "house": {name: True for name in _BOOLEAN_RULES if name not in _IN_REFUSED},
}


def preset_rules(preset: str, rules: dict[str, Any] | None, teams: int = 0) -> dict[str, Any]:
    """The house rules of ``preset`` with the explicit ``rules`` on top.

    ``house`` with teams leaves ``elimination`` out: the rule book refuses the two together.
    """
    merged = dict(PRESETS[preset])
    if teams:
        merged.pop("elimination", None)
    merged.update(rules or {})
    return merged


def _invalid(detail: str, *refused: tuple[str, dict[str, Any]]) -> IllegalMove:
    """``invalid_rules``; ``refused``: each setting refused (its path) and its check."""
    fields = {path: [{"message": detail, **check}] for path, check in refused}
    return IllegalMove("invalid_rules", detail, fields)


def _out_of(bound: Bound, value: object, path: str) -> IllegalMove:
    """A setting out of ``bound``: its check says the limit passed (``min_value``, …)."""
    check: dict[str, Any] = {"code": "invalid"}  # not an integer
    if isinstance(value, int) and not isinstance(value, bool):
        low = value < bound.low
        check = {
            "code": "min_value" if low else "max_value",
            "limit": bound.low if low else bound.high,
        }
    return _invalid(bound.message(), (path, check))


def _together(detail: str, *names: str) -> IllegalMove:
    """Settings that do not combine: each refused, with the others (``with``)."""
    return _invalid(
        detail,
        *(
            (_path(name), {"code": "combination", "with": [n for n in names if n != name]})
            for name in names
        ),
    )


def _path(name: str) -> str:
    return name if name == "teams" else f"rules.{name}"


class Bank(NamedTuple):
    """The bank clock of a game, in seconds."""

    initial: int
    increment: int
    max: int


def clock_setting(options: Options) -> dict[str, Any]:
    """The clock as a game's settings show it (``settings.clock``): ``{"type": "move"}``, or the
    bank clock's ``{"type": "bank", "initial", "increment", "max"}`` in seconds."""
    if not options.bank:
        return {"type": "move"}
    return {
        "type": "bank",
        "initial": options.bank_initial,
        "increment": options.bank_increment,
        "max": options.bank_max,
    }


def check_bank(bank: Bank) -> Bank:
    """The bank clock if it makes sense; raise ``IllegalMove('invalid_clock')``."""
    for bound, value in zip((BANK_INITIAL, BANK_INCREMENT, BANK_MAX), bank, strict=True):
        if not bound.holds(value):
            raise IllegalMove("invalid_clock", bound.message())
    if bank.initial > bank.max or bank.increment > bank.max:
        raise IllegalMove("invalid_clock", "'initial' and 'increment' must not exceed 'max'.")
    return Bank(*bank)


def make_options(
    rules: dict[str, Any] | None = None,
    *,
    target_score: int = 500,
    max_timeouts: int = 3,
    teams: int = 0,
    bank: Bank | None = None,
) -> Options:
    """Build and check the options of a new game; raise ``IllegalMove('invalid_rules')``.

    ``bank`` is the bank clock's (initial, increment, max) in seconds; None for the move clock.
    """
    rules = dict(rules or {})
    unknown = sorted(set(rules) - set(HOUSE_RULES))
    if unknown:
        raise _invalid(
            f"Unknown house rule(s): {', '.join(unknown)}.",
            *((_path(name), {"code": "unknown_field"}) for name in unknown),
        )
    for name in _BOOLEAN_RULES:
        if name in rules and not isinstance(rules[name], bool):
            raise _invalid(
                f"House rule '{name}' must be true or false.", (_path(name), {"code": "invalid"})
            )
    for choice in _CHOICE_RULES:
        values = choice.choices or ()
        if choice.name in rules and rules[choice.name] not in values:
            allowed = " or ".join(repr(value) for value in values)
            refused = (_path(choice.name), {"code": "invalid_choice"})
            raise _invalid(f"'{choice.name}' must be {allowed}.", refused)
    for bound in _BOUNDS:
        value = rules.get(bound.name, getattr(_DEFAULTS, bound.name))
        if not bound.holds(value):
            raise _out_of(bound, value, _path(bound.name))
    for bound, value in ((TARGET_SCORE, target_score), (MAX_TIMEOUTS, max_timeouts)):
        if not bound.holds(value):
            raise _out_of(bound, value, bound.name)
    if teams and not TEAMS.holds(teams):
        raise _out_of(TEAMS, teams, "teams")
    clock = check_bank(bank) if bank is not None else Bank(0, 0, 0)
    options = Options(
        target_score=target_score,
        max_timeouts=max_timeouts,
        teams=teams,
        bank_initial=clock.initial,
        bank_increment=clock.increment,
        bank_max=clock.max,
        **rules,
    )
    if options.reverse_bounce and not options.stacking:
        raise _invalid(
            "'reverse_bounce' needs 'stacking': there is no penalty to bounce without it.",
            ("rules.reverse_bounce", {"code": "needs", "with": ["stacking"]}),
        )
    for names, why in REFUSED:
        if all(getattr(options, name) for name in names):
            quoted = " and ".join(f"'{name}'" for name in names)
            raise _together(f"{quoted} do not combine: {why}.", *names)
    if options.teams and options.elimination:
        raise _together(
            "'teams' and 'elimination' do not combine: a team wins the round at once.",
            "teams",
            "elimination",
        )
    return options


def options_from_data(data: dict[str, Any]) -> Options:
    return Options(**data)
