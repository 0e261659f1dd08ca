"""Events: the plain, JSON-serialisable facts the engine decides and the log stores.

An event is a dict ``{"type": str, "seat": int | None, "data": dict}``; ``shapes.EVENT_DATA``
defines the ``data`` of each type. ``seat`` is the seat the event happened to or was done by
(``None`` for the table as a whole). Every random outcome (each
shuffle, the position a starter wild-draw4 goes back to) is written into ``data``, so folding a
log never draws a random number.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, TypedDict

from games.engine.shapes import EVENT_DATA


class Event(TypedDict):
    """One event of the log. ``data`` is read-only to its readers (the state, the log and every
    view may share it); the engine builds it from the shape of its type (``rules.Turn.emit``)."""

    type: str
    seat: int | None
    data: Mapping[str, Any]


# The shape of each type's data is defined once, in ``shapes.EVENT_DATA``.
EVENT_TYPES: Final = tuple(EVENT_DATA)

# Reasons a seat draws cards. The first two are the seat's own move (they close the UNO catch
# window and reset the timeout count); the others are penalties (cards that cannot jump in).
VOLUNTARY_DRAWS: Final = frozenset({"draw", "take"})
PENALTY_DRAWS: Final = frozenset(
    {"take", "penalty", "starter", "caught", "bluff", "challenge", "uno"}
)
