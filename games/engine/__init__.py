"""The UNO rules engine: pure functions over frozen states. No Django import below here.

- ``start_game(players, options, seed, deck=None) -> events``
- ``decide(state, seat, action) -> events`` / ``act(..., left=None) -> (events, state)``;
  ``time_out(state)``, ``resign(state, seat)`` and ``take_over(state, seat, reason)`` are the
  server's own actions (``left``: with a bank clock, the seconds the seat to act has left, which
  the service reads from its clock)
- ``apply(state, event) -> state``, ``replay(events) -> state``
- ``view(state, seat)``, ``legal_actions(state, seat)``, ``event_view(event, seat, revealed)``

The rule book is /work/shared/rules.md; where it is silent the engine decides as
the official rules would, and ``games.engine.rules``' docstring lists each such decision.
"""

from games.engine.cards import CARD_CODES, COLORS, DECK
from games.engine.errors import IllegalMove
from games.engine.events import Event
from games.engine.evolve import apply, replay
from games.engine.options import HOUSE_RULES, Options, make_options
from games.engine.rules import act, decide, resign, start_game, take_over, time_out
from games.engine.state import GameState, Pending
from games.engine.views import event_view, legal_actions, shown_alike, view

__all__ = [
    "CARD_CODES",
    "COLORS",
    "DECK",
    "HOUSE_RULES",
    "Event",
    "GameState",
    "IllegalMove",
    "Options",
    "Pending",
    "act",
    "apply",
    "decide",
    "event_view",
    "legal_actions",
    "make_options",
    "replay",
    "resign",
    "shown_alike",
    "start_game",
    "take_over",
    "time_out",
    "view",
]
