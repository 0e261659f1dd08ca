"""The house-rule options of the rule book, their defaults, and the check that they make sense.

All house rules are off by default; a game's ``rules`` object turns them on. Unknown options and
combinations that make no sense are refused when the game is created.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Literal

from games.engine.errors import IllegalMove
from games.engine.limits import BLUFF_PENALTY, MAX_TIMEOUTS, TARGET_SCORE, UNO_PENALTY

Scoring = Literal["winner", "penalty"]


@dataclass(frozen=True)
class Options:
    """Everything a game is created with that changes how it is played."""

    target_score: int = 500
    max_timeouts: int = 3
    scoring: Scoring = "winner"
    stacking: bool = False
    reverse_bounce: bool = False
    draw_until_playable: bool = False
    force_play: bool = False
    jump_in: bool = False
    seven_zero: bool = False
    multi_play: bool = False
    no_action_finish: bool = False
    elimination: bool = False
    uno_penalty: int = 2
    bluff_penalty: int = 4

    def rules(self) -> dict[str, Any]:
        """The house-rule part, as the game's ``rules`` object."""
        data = self.to_data()
        del data["target_score"], data["max_timeouts"]
        return data

    def to_data(self) -> dict[str, Any]:
        # Every option is a scalar: no need for asdict's deep copy, which is slow (a snapshot
        # of the state is written on every action).
        return {name: getattr(self, name) for name in _OPTION_NAMES}


_OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Options))


HOUSE_RULES: tuple[str, ...] = tuple(
    f.name for f in fields(Options) if f.name not in ("target_score", "max_timeouts")
)
_BOOLEAN_RULES = tuple(f.name for f in fields(Options) if f.type in ("bool", bool))
_DEFAULTS = Options()


def _invalid(detail: str) -> IllegalMove:
    return IllegalMove("invalid_rules", detail)


def make_options(
    rules: dict[str, Any] | None = None, *, target_score: int = 500, max_timeouts: int = 3
) -> Options:
    """Build and check the options of a new game; raise ``IllegalMove('invalid_rules')``."""
    rules = dict(rules or {})
    unknown = sorted(set(rules) - set(HOUSE_RULES))
    if unknown:
        raise _invalid(f"Unknown house rule(s): {', '.join(unknown)}.")
    for name in _BOOLEAN_RULES:
        if name in rules and not isinstance(rules[name], bool):
            raise _invalid(f"House rule '{name}' must be true or false.")
    if "scoring" in rules and rules["scoring"] not in ("winner", "penalty"):
        raise _invalid("'scoring' must be 'winner' or 'penalty'.")
    for bound in (UNO_PENALTY, BLUFF_PENALTY):
        if not bound.holds(rules.get(bound.name, getattr(_DEFAULTS, bound.name))):
            raise _invalid(bound.message())
    for bound, value in ((TARGET_SCORE, target_score), (MAX_TIMEOUTS, max_timeouts)):
        if not bound.holds(value):
            raise _invalid(bound.message())
    options = Options(target_score=target_score, max_timeouts=max_timeouts, **rules)
    if options.reverse_bounce and not options.stacking:
        raise _invalid(
            "'reverse_bounce' needs 'stacking': there is no penalty to bounce without it."
        )
    return options


def options_from_data(data: dict[str, Any]) -> Options:
    return Options(**data)
