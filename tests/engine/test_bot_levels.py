"""The bot levels (``games.engine.bots``): every decision is a listed legal action, a bot never
peeks (two states that differ only in cards hidden from its seat get the same decision from the
same random source), and each level plays whole games by the rules."""

from __future__ import annotations

import functools
import os
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games.engine import (
    DECK,
    GameState,
    act,
    event_view,
    legal_actions,
    make_options,
    replay,
    start_game,
    time_out,
    view,
)
from games.engine.bots import LEVELS, Bot, basic, choose, fastsim, next_move, play_for, strong
from games.engine.events import Event

SCALE = 10 if os.environ.get("HYPOTHESIS_PROFILE") == "long" else 1
# The search bot with its clock off: its choice then depends on its random source alone.
STRONG_FIXED: Bot = functools.partial(strong.decide, budget=0, iterations=3)
BOTS: dict[str, Bot] = {**LEVELS, "strong": STRONG_FIXED}
RULE_SETS: list[dict[str, Any]] = [
    {},
    {"stacking": True, "jump_in": True, "seven_zero": True},
    {"stacking": True, "reverse_bounce": True, "draw_until_playable": True},
    {"multi_play": True, "no_action_finish": True, "elimination": True, "force_play": True},
]


def _settings(examples: int) -> Callable[[Any], Any]:
    return settings(
        max_examples=examples * SCALE,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
        derandomize=bool(os.environ.get("CI")),
    )


def _played(
    seed: int, players: int, rules: dict[str, Any], moves: int
) -> tuple[GameState, list[Event]]:
    """A game ``moves`` random moves in: mostly the actor, sometimes another seat (UNO, catch,
    jump in) or the server's timeout, so logs hold challenges, swaps and catches."""
    rng = random.Random(seed)
    log = start_game(players, make_options(rules, target_score=200), seed)
    state = replay(log)
    for _ in range(moves):
        if state.status != "active":
            break
        others = [s for s in range(players) if s != state.actor and legal_actions(state, s)]
        roll = rng.random()
        if roll < 0.03:
            events, state = time_out(state)
        elif others and roll < 0.2:
            seat = rng.choice(others)
            events, state = act(state, seat, rng.choice(legal_actions(state, seat)))
        else:
            seat = state.actor
            events, state = act(
                state, seat, choose(rng, legal_actions(state, seat), prefer_play=0.9)
            )
        log += events
    return state, log


def _hidden_shuffled(state: GameState, seat: int, rng: random.Random) -> GameState:
    """``state`` with the cards ``seat`` cannot see (other hands, the draw pile) dealt anew."""
    others = [s for s in range(state.players) if s != seat]
    pool = [c for s in others for c in state.hands[s]] + list(state.draw_pile)
    rng.shuffle(pool)
    hands = list(state.hands)
    for s in others:
        hands[s], pool = tuple(pool[: len(hands[s])]), pool[len(hands[s]) :]
    return state.evolve(hands=tuple(hands), draw_pile=tuple(pool), seed=rng.getrandbits(31))


def _scrambled(item: Event, seat: int, rng: random.Random) -> Event:
    """``item`` with what ``seat`` may not see in it changed."""
    data = dict(item["data"])
    kind, who = item["type"], item["seat"]
    if kind == "game_started":
        data["seed"] = rng.getrandbits(31)
    elif kind == "round_started" and seat in data["seats"]:
        k = len(data["seats"])
        mine = {i for i in range(7 * k) if i % k == data["seats"].index(seat)}
        deck = list(data["deck"])
        free = [i for i in range(len(deck)) if i not in mine]
        cards = [deck[i] for i in free]
        rng.shuffle(cards)
        for i, card in zip(free, cards, strict=True):
            deck[i] = card
        data["deck"] = deck
    elif kind in ("pile_reshuffled", "forfeited"):
        data["draw_pile"] = rng.sample(data["draw_pile"], len(data["draw_pile"]))
    elif kind == "cards_drawn" and who != seat:
        data["cards"] = [rng.choice(DECK) for _ in data["cards"]]
    elif kind == "challenged" and seat not in (who, data["target"]):
        data["hand"] = [rng.choice(DECK) for _ in data["hand"]]
    elif kind == "starter_returned":
        data["position"] = rng.randrange(100)
    return {"type": kind, "seat": who, "data": data}


@st.composite
def positions(draw: st.DrawFn) -> tuple[GameState, list[Event], int]:
    players = draw(st.integers(2, 5))
    rules = draw(st.sampled_from(RULE_SETS))
    state, log = _played(draw(st.integers(0, 2**31)), players, rules, draw(st.integers(0, 160)))
    seats = [s for s in range(players) if legal_actions(state, s)]
    if not seats:
        seats = [state.actor] if state.status == "active" else []
    assume(seats)
    # The seat to act most of the time: that is where the search bot searches.
    seat = state.actor if draw(st.integers(0, 3)) else draw(st.sampled_from(seats))
    assume(legal_actions(state, seat))
    return state, log, seat


@_settings(150)
@given(position=positions(), level=st.sampled_from(sorted(BOTS)), bot_seed=st.integers(0, 2**31))
def test_a_bot_decides_the_same_whatever_the_cards_hidden_from_it(
    position: tuple[GameState, list[Event], int], level: str, bot_seed: int
) -> None:
    state, log, seat = position
    shuffler = random.Random(bot_seed + 1)
    other_state = _hidden_shuffled(state, seat, shuffler)
    other_log = [_scrambled(item, seat, shuffler) for item in log]
    # The two worlds look the same from the seat: the test changed hidden cards only.
    assert view(other_state, seat, revealed=False) == view(state, seat, revealed=False)
    assert [event_view(e, seat, False) for e in other_log] == [
        event_view(e, seat, False) for e in log
    ]
    bot = BOTS[level]
    chosen = play_for(bot, random.Random(bot_seed), state, seat, log)
    assert chosen == play_for(bot, random.Random(bot_seed), other_state, seat, other_log)
    if chosen is None:  # nothing now: only ever off the seat's turn
        assert seat != state.actor
        return
    legal = legal_actions(state, seat)
    assert chosen in legal
    act(state, seat, chosen)  # the engine accepts it


def _whole_game(levels: list[str], seed: int, rules: dict[str, Any]) -> GameState:
    """A game of bots as the service plays it (``next_move``: off-turn moves first)."""
    log = start_game(len(levels), make_options(rules, target_score=60), seed)
    state = replay(log)
    rngs = [random.Random(seed * 31 + s) for s in range(len(levels))]
    table = [BOTS[level] for level in levels]
    for _ in range(20_000):
        if state.status != "active":
            break
        move = next_move(table, rngs, state, log)
        assert move is not None
        seat, action = move
        assert action in legal_actions(state, seat)
        events, state = act(state, seat, action)
        log += events
    return state


@pytest.mark.parametrize("rules", RULE_SETS[:2])
def test_every_level_plays_a_whole_game_to_its_end(rules: dict[str, Any]) -> None:
    state = _whole_game(["strong", "basic", "random"], 5, rules)
    assert state.status == "finished"
    assert state.winner is not None


@_settings(12)
@given(
    seed=st.integers(0, 2**31),
    levels=st.lists(st.sampled_from(sorted(BOTS)), min_size=2, max_size=4),
    rules=st.sampled_from(RULE_SETS),
)
def test_games_of_bots_end_with_off_turn_moves_legal(
    seed: int, levels: list[str], rules: dict[str, Any]
) -> None:
    state = _whole_game(levels, seed, rules)
    assert state.status == "finished"


@_settings(100)
@given(position=positions(), playout_seed=st.integers(0, 2**31))
def test_a_fast_playout_keeps_the_cards_and_ends_with_a_seat_out(
    position: tuple[GameState, list[Event], int], playout_seed: int
) -> None:
    state, _, _ = position
    assume(state.status == "active" and state.discard_pile and fastsim.supports(state.options))
    sim = fastsim.Round(state, random.Random(playout_seed))
    winner = sim.run()
    assert sorted(sim.cards()) == sorted(DECK)
    if winner is not None:
        assert sim.hands[winner] == []
    assert all(sim.hands[s] for s in sim.playing if s != winner)


def test_basic_says_uno_catches_and_keeps_its_wild() -> None:
    seen: dict[str, Any] = {
        "seats": [
            {"seat": 0, "hand_count": 3, "score": 0, "uno": False, "status": "playing"},
            {"seat": 1, "hand_count": 1, "score": 0, "uno": False, "status": "playing"},
        ],
        "round": {
            "number": 1,
            "dealer": 1,
            "current_seat": 0,
            "direction": 1,
            "top_card": "red-5",
            "color": "red",
            "draw_pile": 80,
            "discard_pile": 3,
            "pending": None,
        },
        "you": {"seat": 0, "hand": ["wild", "red-2", "blue-2"], "legal_actions": []},
    }
    plays = [{"action": "play", "card": "wild", "color": c} for c in ("red", "blue")]
    plays.append({"action": "play", "card": "red-2"})
    seen["you"]["legal_actions"] = [*plays, {"action": "draw"}]
    assert basic.decide(random.Random(1), seen) == {"action": "play", "card": "red-2"}
    catch = {"action": "catch", "target": 1}
    seen["you"]["legal_actions"] = [*plays, {"action": "draw"}, catch]
    assert basic.decide(random.Random(1), seen) == catch
