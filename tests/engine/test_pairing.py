"""The pure pairing and standings of tournaments (games.pairing, games.standings): no database."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.pairing import (
    arena_tables,
    duplicate_seats,
    repeats,
    swiss_tables,
    table_sizes,
)
from games.standings import Result, game_points, placing_points, standings
from tests.support.pairing import fewest_repeats


def history(players: list[int], size: int, rounds: int, rng: random.Random) -> dict[int, set[int]]:
    """Who met whom over ``rounds`` random seatings."""
    met: dict[int, set[int]] = {p: set() for p in players}
    for _ in range(rounds):
        shuffled = players[:]
        rng.shuffle(shuffled)
        start = 0
        for cap in table_sizes(len(players), size):
            table = shuffled[start : start + cap]
            start += cap
            for p in table:
                met[p].update(q for q in table if q != p)
    return met


def test_table_sizes_are_even() -> None:
    assert table_sizes(7, 4) == [4, 3]
    assert table_sizes(8, 4) == [4, 4]
    assert table_sizes(9, 4) == [3, 3, 3]
    assert table_sizes(5, 4) == [3, 2]
    assert table_sizes(11, 10) == [6, 5]
    assert table_sizes(0, 4) == []


def test_a_first_round_seats_the_standings_in_order() -> None:
    order = list(range(1, 9))
    assert swiss_tables(order, 4, {}) == [[1, 2, 3, 4], [5, 6, 7, 8]]


def test_nobody_meets_again_where_another_seating_exists() -> None:
    # Round one seated 1-4, 5-8, 9-12, 13-16 together: round two takes one of each group.
    order = list(range(1, 17))
    group = {p: (p - 1) // 4 for p in order}
    met = {p: {q for q in order if q != p and group[q] == group[p]} for p in order}
    tables = swiss_tables(order, 4, met)
    assert repeats(tables, met) == 0
    assert tables[0] == [1, 5, 9, 13]  # the leader and the best of each other group
    # Eight players from two such groups cannot avoid repeats: the fewest (4) then.
    eight = list(range(1, 9))
    assert repeats(swiss_tables(eight, 4, met), met) == fewest_repeats(eight, [4, 4], met) == 4


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(min_value=2, max_value=12),
    size=st.integers(min_value=2, max_value=5),
    rounds=st.integers(min_value=0, max_value=3),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_small_rounds_seat_everyone_once_with_the_fewest_repeats(
    count: int, size: int, rounds: int, seed: int
) -> None:
    rng = random.Random(seed)
    players = list(range(100, 100 + count))
    order = players[:]
    rng.shuffle(order)
    met = history(players, size, rounds, rng)
    tables = swiss_tables(order, size, met)
    seated = [p for t in tables for p in t]
    assert sorted(seated) == sorted(players)  # everyone, once
    assert sorted(map(len, tables), reverse=True) == table_sizes(count, size)
    assert all(len(t) <= size for t in tables)
    assert repeats(tables, met) == fewest_repeats(order, table_sizes(count, size), met)


@settings(max_examples=15, deadline=None)
@given(
    count=st.integers(min_value=40, max_value=400),
    size=st.integers(min_value=2, max_value=4),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_large_rounds_seat_everyone_once_and_avoid_repeats(
    count: int, size: int, seed: int
) -> None:
    rng = random.Random(seed)
    players = list(range(count))
    met = history(players, size, 2, rng)
    tables = swiss_tables(players, size, met)
    assert sorted(p for t in tables for p in t) == players
    assert sorted(map(len, tables), reverse=True) == table_sizes(count, size)
    # Two earlier rounds (each met at most 6 of 39 or more) leave many seatings without a
    # repeat: the greedy seating and its repair find one.
    assert repeats(tables, met) == 0


def test_arena_seats_the_longest_waiting_with_the_nearest_in_standing() -> None:
    rank = {p: p for p in range(10)}
    # 7 waited longest; 6 and 8 are nearest to it.
    assert arena_tables([7, 0, 1, 6, 8], rank, 3) == [[6, 7, 8]]
    assert arena_tables([7, 0], rank, 3) == []
    assert arena_tables([7, 0], rank, 3, short=True) == [[0, 7]]
    tables = arena_tables(list(range(9)), rank, 2)
    assert sorted(p for t in tables for p in t) == list(range(8))  # one left waiting


def test_duplicate_seats_give_each_player_each_hand_once() -> None:
    players = [11, 22, 33, 44]
    for table in range(3):
        held = {p: {duplicate_seats(players, d, table).index(p) for d in range(4)} for p in players}
        assert all(hands == {0, 1, 2, 3} for hands in held.values())


def test_placing_points_share_ties() -> None:
    assert placing_points([1, 2, 3, 4]) == [3, 2, 1, 0]
    assert placing_points([1, 2, 2, 4]) == [3, 1.5, 1.5, 0]
    assert placing_points([2, 1, 2, 2]) == [1, 3, 1, 1]


def test_arena_points_double_after_two_wins_in_a_row() -> None:
    def game(winner: int) -> Result:
        other = 2 if winner == 1 else 1
        return Result(1, 1, 0, (winner, other), (1, 2), winner)

    results = [game(1), game(1), game(1), game(2), game(1)]
    counted = game_points("arena", results)
    # Player 1 wins three in a row: the third is doubled; after the loss, no doubling.
    assert [row[0] for row in counted] == [1, 1, 2, 1, 1]  # seat 0 is the winner each time
    assert counted[3] == [1, 0]  # player 2's win (seat 0) is not doubled; player 1's loss: 0 * 2
    table = standings("arena", results, [1, 2], {})
    assert [(s.player, s.points, s.streak) for s in table] == [(1, 5.0, 1), (2, 1.0, 0)]


def test_duplicate_scores_compare_the_holders_of_each_hand() -> None:
    # One deal at two tables: the hand of seat 0 won at table 1, came last at table 2.
    a = Result(1, 1, 0, (1, 2), (1, 2), 1)
    b = Result(1, 2, 0, (3, 4), (2, 1), 4)
    counted = game_points("duplicate", [a, b])
    assert counted == [[1.0, 0.0], [0.0, 1.0]]
    table = standings("duplicate", [a, b], [1, 2, 3, 4], {})
    assert {s.player: s.points for s in table} == {1: 1.0, 2: 0.0, 3: 0.0, 4: 1.0}


def test_standings_order_points_then_opponents_points_then_rating() -> None:
    # 1 beats 2, 3 beats 4; 2 and 4 each beat someone weaker later.
    results = [
        Result(1, 1, 0, (1, 2), (1, 2), 1),
        Result(1, 2, 0, (3, 4), (1, 2), 3),
        Result(2, 1, 0, (1, 3), (1, 2), 1),
        Result(2, 2, 0, (2, 4), (1, 2), 2),
    ]
    table = standings("swiss", results, [1, 2, 3, 4], {3: 5.0, 4: 1.0})
    assert [s.player for s in table] == [1, 3, 2, 4]
    by = {s.player: s for s in table}
    assert by[3].tiebreak == by[4].points + by[1].points
    assert by[1].games == 2 and by[1].wins == 2
