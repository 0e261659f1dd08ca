"""The random player of the tests and the benchmarks (``games.engine.bots``) only ever sends
actions the engine accepts, from what its seat may see, and plays the same moves for a seed."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine import act, legal_actions, make_options, replay, start_game, view
from games.engine.bots import choose


def whole_game(seed: int, prefer_play: float, rules: dict[str, Any]) -> list[dict[str, Any]]:
    """A 3-player game played to its end by the bot; the actions it chose."""
    rng = random.Random(seed)
    state = replay(start_game(3, make_options(rules, target_score=50), seed))
    chosen = []
    while state.status == "active":
        seat = state.actor
        seen = {**view(state, seat), "settings": {"rules": rules}}
        action = choose(rng, seen, prefer_play=prefer_play)
        _, state = act(state, seat, action)  # raises IllegalMove if the bot cheated
        chosen.append(action)
    return chosen


@pytest.mark.parametrize("prefer_play", [0, 0.8, 1])
def test_every_choice_is_accepted_and_a_seed_replays_the_same_moves(prefer_play: float) -> None:
    first = whole_game(7, prefer_play, {})
    assert first == whole_game(7, prefer_play, {})
    assert first


def test_under_multi_play_it_sometimes_plays_several_cards_and_they_are_legal() -> None:
    moves = [a for seed in range(6) for a in whole_game(seed, 0.9, {"multi_play": True})]
    assert any("cards" in a for a in moves)


def test_from_the_list_alone_it_picks_a_listed_action() -> None:
    state = replay(start_game(2, make_options(), 3))
    listed = legal_actions(state, state.actor)
    rng = random.Random(1)
    assert all(choose(rng, listed, prefer_play=0.5) in listed for _ in range(50))
    plays = [a for a in listed if a["action"] == "play"]
    assert plays and all(choose(rng, listed, prefer_play=1) in plays for _ in range(50))


def test_a_seat_with_nothing_to_do_gets_no_action() -> None:
    state = replay(start_game(2, make_options(), 3))
    waiting = 1 - state.actor
    with pytest.raises(ValueError):
        choose(random.Random(1), view(state, waiting))
