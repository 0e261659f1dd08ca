"""A whole game state as plain JSON data and back: what the service keeps beside the log.

Loading a game to act on it reads this snapshot instead of replaying the log, so the cost of an
action does not grow with the number of events already logged.
"""

from __future__ import annotations

from typing import Any

from games.engine.evolve import pending_from_data, pending_to_data
from games.engine.options import options_from_data
from games.engine.state import GameState, RoundResult

SNAPSHOT_VERSION = 1


def state_to_data(state: GameState) -> dict[str, Any]:
    last = state.last_round
    return {
        "v": SNAPSHOT_VERSION,
        "players": state.players,
        "options": state.options.to_data(),
        "seed": state.seed,
        "status": state.status,
        "round_number": state.round_number,
        "dealer": state.dealer,
        "hands": [list(hand) for hand in state.hands],
        "statuses": list(state.statuses),
        "scores": list(state.scores),
        "timeouts": list(state.timeouts),
        "uno": sorted(state.uno),
        "catchable": sorted(state.catchable),
        "draw_pile": list(state.draw_pile),
        "discard_pile": list(state.discard_pile),
        "color": state.color,
        "direction": state.direction,
        "current": state.current,
        "pending": pending_to_data(state.pending),
        "shuffles": state.shuffles,
        "penalty_drawn": (
            None
            if state.penalty_drawn is None
            else [state.penalty_drawn[0], list(state.penalty_drawn[1])]
        ),
        "out_order": list(state.out_order),
        "last_round": None
        if last is None
        else {
            "number": last.number,
            "winner_seat": last.winner_seat,
            "points": list(last.points),
            "hands": [list(hand) for hand in last.hands],
        },
        "winner": state.winner,
        "given_deck": state.given_deck,
        "winner_team": state.winner_team,
        "salt": state.salt,
        "banks": list(state.banks),
    }


def state_from_data(data: dict[str, Any]) -> GameState:
    if data.get("v") != SNAPSHOT_VERSION:
        raise ValueError(f"unknown snapshot version {data.get('v')!r}")
    last = data["last_round"]
    penalty = data["penalty_drawn"]
    return GameState(
        players=data["players"],
        options=options_from_data(data["options"]),
        seed=data["seed"],
        status=data["status"],
        round_number=data["round_number"],
        dealer=data["dealer"],
        hands=tuple(tuple(hand) for hand in data["hands"]),
        statuses=tuple(data["statuses"]),
        scores=tuple(data["scores"]),
        timeouts=tuple(data["timeouts"]),
        uno=frozenset(data["uno"]),
        catchable=frozenset(data["catchable"]),
        draw_pile=tuple(data["draw_pile"]),
        discard_pile=tuple(data["discard_pile"]),
        color=data["color"],
        direction=data["direction"],
        current=data["current"],
        pending=pending_from_data(data["pending"]),
        shuffles=data["shuffles"],
        penalty_drawn=None if penalty is None else (penalty[0], tuple(penalty[1])),
        out_order=tuple(data["out_order"]),
        last_round=None
        if last is None
        else RoundResult(
            number=last["number"],
            winner_seat=last["winner_seat"],
            points=tuple(last["points"]),
            hands=tuple(tuple(hand) for hand in last["hands"]),
        ),
        winner=data["winner"],
        given_deck=data["given_deck"],
        winner_team=data.get("winner_team"),
        salt=data.get("salt", ""),
        banks=tuple(data.get("banks", ())),
    )
