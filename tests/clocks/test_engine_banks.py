"""The bank clock in the pure engine: times come in as ``left``; the log records each bank."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games import engine
from games.engine.options import Bank
from games.engine.snapshot import state_from_data, state_to_data

BANK = Bank(initial=100, increment=30, max=120)


def started(bank: Bank = BANK, players: int = 2) -> engine.GameState:
    return engine.replay(engine.start_game(players, engine.make_options(bank=bank), seed=7))


def own_move(state: engine.GameState) -> dict[str, Any]:
    """A move of the seat to act that hands the turn on (a draw, or the pass after one)."""
    actions = engine.legal_actions(state, state.actor)
    for name in ("pass", "draw", "accept", "color"):
        for action in actions:
            if action["action"] == name:
                return action
    return actions[0]


def banks_changed(events: list[engine.Event]) -> list[tuple[int | None, int]]:
    return [(e["seat"], e["data"]["bank"]) for e in events if e["type"] == "bank_changed"]


def test_every_seat_starts_with_the_initial_bank() -> None:
    state = started()
    assert state.banks == (100, 100)
    assert [seat["bank"] for seat in engine.view(state, 0)["seats"]] == [100, 100]


def test_a_move_keeps_what_was_left_and_adds_the_increment_up_to_the_max() -> None:
    state = started()
    actor = state.actor
    events, after = engine.act(state, actor, own_move(state), left=60)
    assert banks_changed(events) == [(actor, 90)]
    assert after.banks[actor] == 90

    state = after
    while state.actor != actor:  # the other seat moves without using time: 100 + 30, capped
        events, state = engine.act(state, state.actor, own_move(state), left=None)
        assert banks_changed(events) == [(1 - actor, 120)] or not banks_changed(events)
    events, after = engine.act(state, actor, own_move(state), left=95)
    assert banks_changed(events) == [(actor, 120)]


def test_a_timeout_restarts_the_bank_from_the_increment() -> None:
    state = started()
    actor = state.actor
    events, after = engine.time_out(state)
    assert events[0]["type"] == "timed_out"
    assert banks_changed(events) == [(actor, 30)]
    assert after.banks[actor] == 30


def test_the_move_clock_writes_no_banks() -> None:
    state = engine.replay(engine.start_game(2, engine.make_options(), seed=7))
    events, after = engine.act(state, state.actor, own_move(state), left=5)
    assert state.banks == () and banks_changed(events) == []
    assert "bank" not in engine.view(after, 0)["seats"][0]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=200), min_size=1, max_size=40))
def test_banks_replay_from_the_log_and_the_snapshot(lefts: list[int]) -> None:
    """Whatever time each move took, folding the log gives the banks the moves decided."""
    log = engine.start_game(3, engine.make_options(bank=BANK), seed=11)
    state = engine.replay(log)
    for left in lefts:
        if state.status != "active":
            break
        events, state = engine.act(state, state.actor, own_move(state), left=left)
        log += events
        assert all(0 <= bank <= BANK.max for bank in state.banks)
    assert engine.replay(log).banks == state.banks
    assert state_from_data(state_to_data(state)) == state


def test_bank_settings_out_of_range_are_refused() -> None:
    for bank in (Bank(0, 1, 10), Bank(5, 0, 10), Bank(20, 1, 10), Bank(5, 11, 10)):
        try:
            engine.make_options(bank=bank)
        except engine.IllegalMove as refused:
            assert refused.code == "invalid_clock"
        else:
            raise AssertionError(f"{bank} was accepted")
