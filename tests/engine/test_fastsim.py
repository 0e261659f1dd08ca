"""The search player's fast playout (``bots.fastsim``) and its world-dealing (``bots.strong``):
the cards as small integers name the same cards, the official rules' quick loop plays the same
moves as the general one, a bluffed wild-draw4 is answered as the basic player answers it, a
world is dealt from the unknown cards only, what a seat reads from basic players' choices holds
for their real hands, and the search stops before a world it cannot finish within its budget."""

from __future__ import annotations

import os
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games.engine import DECK, GameState, act, legal_actions, make_options, replay, start_game
from games.engine.bots import basic, fastsim, next_move, play_for, seen_by, strong
from games.engine.bots.knowledge import agrees, read
from games.engine.cards import COLOR_OF, COLORS, RANK_OF, WILD_DRAW4
from games.engine.events import Event
from games.engine.state import make_pending
from tests.engine.test_bot_levels import SCALE, positions


def _settings(examples: int) -> Any:
    """The bot tests' settings; these tests filter the positions hard (official rules, the seat
    to act), so hypothesis's check against over-filtering is off too."""
    return settings(
        max_examples=examples * SCALE,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        derandomize=bool(os.environ.get("CI")),
    )


def test_a_card_integer_names_one_card_its_colour_and_its_rank() -> None:
    assert len(fastsim.ID) == len(set(DECK)) == 54
    for code, card in fastsim.ID.items():
        assert fastsim.CODE[card] == code
        color = COLOR_OF[code]
        assert (card >> 4) == (COLORS.index(color) if color is not None else 4)
    ranks = {RANK_OF[code]: card & 15 for code, card in fastsim.ID.items()}
    assert len(set(ranks.values())) == len(ranks) == 15  # ten numbers, three actions, two wilds


@_settings(100)
@given(position=positions(), playout_seed=st.integers(0, 2**31))
def test_the_official_loop_plays_the_moves_of_the_general_one(
    position: tuple[GameState, list[Event], int], playout_seed: int
) -> None:
    state, _, _ = position
    assume(state.status == "active" and state.discard_pile and fastsim.supports(state.options))
    assume(not (state.options.stacking or state.options.jump_in or state.options.seven_zero))
    assume(all(status == "playing" for status in state.statuses))
    # The search's random source, seeded when first used, shuffles as the one seeded at once.
    quick = fastsim.Round(state, fastsim.LazyRandom(playout_seed))
    general = fastsim.Round(state, random.Random(playout_seed))
    winner = quick.run_official()
    assert winner == general.run_modelled()
    assert quick.hands == general.hands
    assert (quick.pile, quick.under, quick.top) == (general.pile, general.under, general.top)
    assert sorted(quick.cards()) == sorted(DECK)
    if winner is not None:
        assert quick.hands[winner] == []


def _bluffed(culprit_hand: tuple[str, ...], victim_hand: tuple[str, ...]) -> GameState:
    """A two-player round just after seat 0 played a wild-draw4 on red (seat 1 to answer)."""
    state = replay(start_game(2, make_options({}), 7))
    hands = (culprit_hand, victim_hand)
    held = Counter(DECK)
    held.subtract([*culprit_hand, *victim_hand, "red-5", WILD_DRAW4])
    rest = tuple(card for card, count in sorted(held.items()) for _ in range(count))
    pending = make_pending(
        kind="wild_draw4",
        seat=1,
        amount=4,
        from_seat=0,
        previous_color="red",
        draw_card=WILD_DRAW4,
    )
    return state.evolve(
        hands=hands,
        draw_pile=rest,
        discard_pile=("red-5", WILD_DRAW4),
        color="blue",
        current=1,
        pending=pending,
    )


def test_a_bluffed_wild_draw4_is_challenged_when_the_odds_say_so() -> None:
    # Seat 0 kept three cards, one red: a bluff that basic's odds catch (2 colours of 4 held).
    guilty = fastsim.Round(
        _bluffed(("red-3", "green-4", "green-5"), ("blue-1", "yellow-2")), random.Random(1)
    )
    assert len(guilty.hands[0]) == 3 + 4  # the culprit drew the bluff penalty
    assert len(guilty.hands[1]) == 2 and guilty.current == 1 and not guilty.owed
    # No red left in its hand: the challenge fails and costs the challenger six cards.
    innocent = fastsim.Round(
        _bluffed(("green-3", "green-4", "green-5"), ("blue-1", "yellow-2")), random.Random(1)
    )
    assert len(innocent.hands[1]) == 2 + 6 and len(innocent.hands[0]) == 3
    assert innocent.current == 0 and not innocent.owed
    # One card left: the odds of a bluff are too low to challenge; the four are taken.
    taken = fastsim.Round(_bluffed(("red-3",), ("blue-1", "yellow-2")), random.Random(1))
    assert taken.owed == 4 and len(taken.hands[0]) == 1


@_settings(60)
@given(position=positions(), seed=st.integers(0, 2**31))
def test_a_world_deals_only_the_unknown_cards_around_the_table(
    position: tuple[GameState, list[Event], int], seed: int
) -> None:
    state, log, seat = position
    assume(state.status == "active" and state.discard_pile)
    seen, events = seen_by(state, seat, log)
    k = read(seen, events)
    k.pool = k.unknown_pool(seen["you"]["hand"])
    world = strong.deal(random.Random(seed), seen, k, strong.table(seen, k))
    assert world.hands[seat] == state.hands[seat]
    assert [len(hand) for hand in world.hands] == [len(hand) for hand in state.hands]
    assert world.discard_pile == state.discard_pile
    dealt = [card for s, hand in enumerate(world.hands) if s != seat for card in hand]
    known = [card for s, cards in enumerate(k.known) if s != seat for card in cards]
    assert sorted(dealt + list(world.draw_pile)) == sorted(k.pool + known)
    assert (world.current, world.color) == (state.current, state.color)
    assert world.actor == state.actor


class _Clock:
    """A clock that moves on ``step`` seconds each time it is read: the search reads it once
    as it starts and once after each world, so each world takes ``step``."""

    def __init__(self, step: float) -> None:
        self.step, self.last, self.reads = step, 0.0, 0

    def __call__(self) -> float:
        self.last = self.reads * self.step
        self.reads += 1
        return self.last


@_settings(40)
@given(position=positions(), seed=st.integers(0, 2**31), step=st.sampled_from([0.001, 0.007]))
def test_the_search_starts_no_world_it_cannot_finish_in_its_budget(
    position: tuple[GameState, list[Event], int], seed: int, step: float
) -> None:
    state, log, seat = position
    assume(state.status == "active" and seat == state.actor)
    clock = _Clock(step)
    budget = 0.03
    bot: Any = lambda rng, seen, events: strong.decide(  # noqa: E731
        rng, seen, events, budget=budget, iterations=10_000, clock=clock
    )
    chosen = play_for(bot, random.Random(seed), state, seat, log)
    assert chosen in legal_actions(state, seat)
    worlds = max(clock.reads - 1, 0)
    # The time it stopped thinking, by its clock: within the budget (or its fewest worlds).
    assert clock.last <= budget + 1e-9 or worlds <= strong.MIN_ITERATIONS


@_settings(15)
@given(
    seed=st.integers(0, 2**31),
    players=st.integers(2, 4),
    rules=st.sampled_from([{}, {"stacking": True, "jump_in": True, "seven_zero": True}]),
)
def test_what_a_seat_reads_from_basic_players_choices_never_rules_out_their_hands(
    seed: int, players: int, rules: dict[str, Any]
) -> None:
    """The search deals hands that agree with the cards each seat chose (``agrees``): against
    basic players that reading must hold for the hands they really hold, at every move (of four
    rounds an example)."""
    readings = 0
    for deal in range(4):
        readings += _rules_out_no_hand(seed * 4 + deal, players, rules)
    assert readings


def _rules_out_no_hand(seed: int, players: int, rules: dict[str, Any]) -> int:
    """One round of basic players checked: how many of the seats' readings had choices."""
    log = start_game(players, make_options(rules, target_score=10**6), seed)
    state = replay(log)
    rngs = [random.Random(seed + s) for s in range(players)]
    table = [basic.decide] * players
    read_some = 0
    while state.last_round is None:
        seat = state.actor
        seen, events = seen_by(state, seat, log)
        k = read(seen, events)
        for other in range(players):
            if other != seat:
                assert agrees(state.hands[other], k.prefers[other])
                read_some += bool(k.prefers[other])
        move = next_move(table, rngs, state, log)
        assert move is not None
        new_events, state = act(state, *move)
        log += new_events
    return read_some
