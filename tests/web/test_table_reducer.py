"""The table's reducer (web/app/table/state.js) against the rules engine, without a browser.

Games are played by random moves (off-turn ones too: jump-ins, UNO, catches; timeouts and
resigns) under many house rules; every event, as each seat and a spectator see it (the event
view the stream serves), is applied by the reducer in Node (reducer_check.mjs). After each one
the reducer's view must be the engine's view of that seat (the fields the table shows), it must
never take the seat to have nothing to do while the engine lists actions for it, and it may read
the view only for the reasons state.js names."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from games import engine
from games.engine.options import Bank
from tests.web.node import APP, run_check

STATE_JS = APP / "table" / "state.js"
MOVES = 600  # moves per game at most: several rounds at a low target
TARGET = 250

# (name, house rules, players, make_options keywords; "starter": the first round's starter)
GAMES: list[tuple[str, dict[str, Any], int, dict[str, Any]]] = [
    ("official", {}, 3, {}),
    ("wild starter", {}, 2, {"starter": "wild"}),
    ("wild-draw4 starter", {"stacking": True}, 3, {"starter": "wild-draw4"}),
    (
        "party",
        {"stacking": True, "jump_in": True, "seven_zero": True, "draw_until_playable": True},
        4,
        {},
    ),
    ("zero_swap", {"zero_swap": True, "one_rotates": True}, 3, {}),
    ("gifts", {"two_gives": True, "zero_discards_color": True, "eight_again": True}, 3, {}),
    ("sets", {"multi_play": True, "force_play": True, "uno_auto_penalty": True}, 3, {}),
    ("runs", {"color_runs": True, "must_play": True, "action_on_action": True}, 3, {}),
    ("elimination", {"elimination": True, "no_wild_finish": True, "scoring": "penalty"}, 4, {}),
    ("teams", {"stacking": True, "reverse_bounce": True}, 4, {"teams": 2}),
    ("bank", {"number_starter": True, "no_action_finish": True}, 3, {"bank": Bank(60, 5, 120)}),
]


def _deck(players: int, starter: str) -> list[str]:
    """The unshuffled deck with ``starter`` where the first round's starter is turned."""
    deck = list(engine.DECK)
    deck.remove(starter)
    deck.insert(players * 7, starter)
    return deck


def _play(
    rules: dict[str, Any], players: int, seed: int, starter: str | None = None, **kw: Any
) -> tuple[list[Any], Any]:
    """A game by random moves: its events and the options."""
    options = engine.make_options(rules, target_score=TARGET, max_timeouts=2, **kw)
    deck = _deck(players, starter) if starter else None
    events = list(engine.start_game(players=players, options=options, seed=seed, deck=deck))
    state = engine.replay(events)
    rng = random.Random(seed)
    for _ in range(MOVES):
        if state.status != "active":
            break
        roll = rng.random()
        playing = [s for s in range(players) if state.statuses[s] == "playing"]
        left = max(0, state.banks[state.actor] - rng.randint(0, 8)) if state.banks else None
        if roll < 0.012:
            batch, state = engine.time_out(state)
        elif roll < 0.016 and len(playing) > 2:
            batch, state = engine.resign(state, rng.choice(playing), left=left)
        else:
            others = [s for s in playing if s != state.actor and engine.legal_actions(state, s)]
            seat = rng.choice(others) if others and rng.random() < 0.4 else state.actor
            legal = engine.legal_actions(state, seat)
            plays = [a for a in legal if a["action"] == "play"]
            action = rng.choice(plays if plays and rng.random() < 0.85 else legal)
            if options.two_gives and action.get("card", "").endswith("-2") and rng.random() < 0.7:
                hand = list(state.hands[seat])
                hand.remove(action["card"])
                targets = [s for s in playing if s != seat]
                if len(hand) > 1 and targets:  # a gift of one or two cards, one card kept
                    gift = rng.sample(hand, min(len(hand) - 1, rng.choice((1, 2))))
                    action = {**action, "give": gift, "target": rng.choice(targets)}
                    action.pop("uno", None)
                    if len(hand) - len(gift) == 1:
                        action["uno"] = True
            batch, state = engine.act(
                state, seat, action, left=left if seat == state.actor else None
            )
        events.extend(batch)
    return events, options


def _cases() -> list[dict[str, Any]]:
    cases = []
    start_at = datetime(2026, 12, 1, tzinfo=UTC)
    for index, (name, rules, players, kw) in enumerate(GAMES):
        events, options = _play(rules, players, 1000 + index, **kw)
        states = []
        state = None
        for event in events:
            state = engine.apply(state, event)
            states.append(state)
        first = next(i for i, e in enumerate(events) if e["type"] == "turn_changed")
        settings: dict[str, Any] = {
            "max_players": players,
            "target_score": TARGET,
            "turn_timeout": 60,
            "clock": {"type": "bank", "initial": 60, "increment": 5, "max": 120}
            if "bank" in kw
            else {"type": "move"},
            "max_timeouts": 2,
            "rules": options.rules(),
        }
        if "teams" in kw:
            settings["teams"] = kw["teams"]
        finished = states[-1].status == "finished"
        for viewer in [*range(players), None]:
            steps = []
            for i in range(first + 1, len(events)):
                revealed = finished and i > len(events) - 12 and states[i].status == "finished"
                shown = engine.event_view(events[i], viewer, revealed)
                at = (start_at + timedelta(seconds=i)).isoformat()
                steps.append(
                    {
                        "seq": i + 1,
                        "event": {"seq": i + 1, "at": at, **shown},
                        "view": engine.view(states[i], viewer),
                    }
                )
            start = {"seq": first + 1, "view": engine.view(states[first], viewer)}
            cases.append(
                {
                    "name": name,
                    "viewer": viewer,
                    "settings": settings,
                    "start": start,
                    "steps": steps,
                }
            )
    return cases


def test_the_table_reducer_follows_the_engine_event_by_event(tmp_path: Path) -> None:
    cases = _cases()
    modules = [("state.mjs", STATE_JS)]
    result = run_check("reducer_check.mjs", cases, tmp_path, modules, timeout=300)
    print(
        f"reducer: {result['frames']} frames in {result['cases']} cases, the seat acting after "
        f"{result['acting']}, views read: {result['reads']}"
    )
    assert not result["mismatches"], result["mismatches"][:3]
    assert not result["missed"], result["missed"][:3]
    assert not result["unapplied"], result["unapplied"][:3]
    types = {step["event"]["type"] for case in cases for step in case["steps"]}
    # Every type but game_started (which the table never follows: it reads the started game).
    assert len(types) >= 22, sorted(types)
    # The seat's actions are read only after frames that leave it something to do (a handful
    # more where another read brought them already); other reads are rare.
    assert result["reads"].get("actions", 0) <= result["acting"], result
    assert sum(result["reads"].values()) < result["frames"] / 3, result["reads"]
