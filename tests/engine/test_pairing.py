"""The pure pairing and standings of tournaments (games.pairing, games.standings): no database."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.pairing import (
    arena_tables,
    duplicate_seats,
    kept_together,
    repeats,
    swiss_tables,
    table_sizes,
)
from games.standings import Result, game_points, placing_points, standings
from tests.support.pairing import fewest_clashes, fewest_repeats


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


def kept_apart(pairs: list[tuple[int, int]]) -> dict[int, set[int]]:
    """Blocks as the service hands them to the pairing: each pair under both players."""
    apart: dict[int, set[int]] = {}
    for first, second in pairs:
        if first != second:
            apart.setdefault(first, set()).add(second)
            apart.setdefault(second, set()).add(first)
    return apart


def blocks(players: list[int], count: int, rng: random.Random) -> dict[int, set[int]]:
    """``count`` blocks between players drawn at random."""
    return kept_apart([(rng.choice(players), rng.choice(players)) for _ in range(count)])


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


def test_players_kept_apart_sit_at_different_tables() -> None:
    order = list(range(1, 9))
    apart = kept_apart([(1, 2)])
    # 2 would sit with 1 (the first round seats the standings in order): the next one does.
    assert swiss_tables(order, 4, {}, apart) == [[1, 3, 4, 5], [2, 6, 7, 8]]
    assert swiss_tables(order, 4, {}, kept_apart([(2, 1)])) == [[1, 3, 4, 5], [2, 6, 7, 8]]


def test_a_block_outweighs_any_number_of_repeats() -> None:
    # Rounds one and two seated 1-3, 2-4, then 1-4, 2-3: only 1-2 and 3-4 would be fresh.
    met = {1: {3, 4}, 2: {4, 3}, 3: {1, 2}, 4: {2, 1}}
    assert swiss_tables([1, 2, 3, 4], 2, met) == [[1, 2], [3, 4]]
    apart = kept_apart([(1, 2)])
    tables = swiss_tables([1, 2, 3, 4], 2, met, apart)
    assert tables == [[1, 3], [2, 4]]  # two repeats rather than the block
    assert (kept_together(tables, apart), repeats(tables, met)) == (0, 2)


def test_players_kept_apart_sit_together_only_where_no_other_seating_exists() -> None:
    # Three players at one table of 3: nothing else exists.
    apart = kept_apart([(1, 2)])
    assert swiss_tables([1, 2, 3], 3, {}, apart) == [[1, 2, 3]]
    # Everyone blocked everyone at tables of 2: one pair per table, as few as there can be.
    everyone = kept_apart([(a, b) for a in range(4) for b in range(4)])
    assert kept_together(swiss_tables([0, 1, 2, 3], 2, {}, everyone), everyone) == 2


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(min_value=2, max_value=12),
    size=st.integers(min_value=2, max_value=5),
    rounds=st.integers(min_value=0, max_value=2),
    blocked=st.integers(min_value=0, max_value=12),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_small_rounds_keep_blocked_players_apart_first_then_avoid_repeats(
    count: int, size: int, rounds: int, blocked: int, seed: int
) -> None:
    rng = random.Random(seed)
    players = list(range(100, 100 + count))
    order = players[:]
    rng.shuffle(order)
    met = history(players, size, rounds, rng)
    apart = blocks(players, blocked, rng)
    tables = swiss_tables(order, size, met, apart)
    assert sorted(p for t in tables for p in t) == sorted(players)  # everyone, once
    assert sorted(map(len, tables), reverse=True) == table_sizes(count, size)
    found = (kept_together(tables, apart), repeats(tables, met))
    assert found == fewest_clashes(order, table_sizes(count, size), met, apart)


def test_a_large_rounds_last_table_is_repaired_apart() -> None:
    # The greedy seating gives the last table whoever is left: 96, 97, 98 and 99.
    order = list(range(100))
    apart = kept_apart([(98, 99), (96, 97), (0, 1)])
    tables = swiss_tables(order, 4, {}, apart)
    assert sorted(p for t in tables for p in t) == order
    assert kept_together(tables, apart) == 0
    assert tables[0] == [0, 2, 3, 4]
    # 99 blocked the 39 players above: no swap with a nearby table parts them, a far one does.
    apart = kept_apart([(99, other) for other in range(60, 99)])
    tables = swiss_tables(order, 4, {}, apart)
    assert sorted(p for t in tables for p in t) == order
    assert kept_together(tables, apart) == 0


@settings(max_examples=15, deadline=None)
@given(
    count=st.integers(min_value=40, max_value=400),
    size=st.integers(min_value=2, max_value=6),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_large_rounds_keep_blocked_players_apart(count: int, size: int, seed: int) -> None:
    rng = random.Random(seed)
    players = list(range(count))
    order = players[:]
    rng.shuffle(order)
    met = history(players, size, 2, rng)
    # Blocks at random, between neighbours in the standings (whom the greedy seating puts
    # together), and one player who blocked the ten nearest above them.
    pairs = [(order[i], order[i + 1]) for i in range(0, count - 1, 7)]
    pairs += [(order[-1], order[-2 - k]) for k in range(10)]
    apart = kept_apart(pairs)
    for player, others in blocks(players, count // 10, rng).items():
        apart.setdefault(player, set()).update(others)
    tables = swiss_tables(order, size, met, apart)
    assert sorted(p for t in tables for p in t) == players
    assert sorted(map(len, tables), reverse=True) == table_sizes(count, size)
    assert kept_together(tables, apart) == 0


def test_arena_seats_the_longest_waiting_with_the_nearest_in_standing() -> None:
    rank = {p: p for p in range(10)}
    # 7 waited longest; 6 and 8 are nearest to it.
    assert arena_tables([7, 0, 1, 6, 8], rank, 3) == [[6, 7, 8]]
    assert arena_tables([7, 0], rank, 3) == []
    assert arena_tables([7, 0], rank, 3, short=True) == [[0, 7]]
    tables = arena_tables(list(range(9)), rank, 2)
    assert sorted(p for t in tables for p in t) == list(range(8))  # one left waiting


def test_arena_keeps_blocked_players_apart_where_another_seating_exists() -> None:
    rank = {p: p for p in range(10)}
    # 7 waited longest; 6 blocked it: the next nearest, 8, then 1, sit with it.
    assert arena_tables([7, 0, 1, 6, 8], rank, 3, apart=kept_apart([(6, 7)])) == [[1, 7, 8]]
    # 0 blocked both others: no table of 3; they wait while tables play ...
    apart = kept_apart([(0, 1), (0, 2)])
    assert arena_tables([0, 1, 2], rank, 3, apart=apart) == []
    # ... and when none plays, the two who may sit together do, short; 0 waits for them.
    assert arena_tables([0, 1, 2], rank, 3, short=True, apart=apart) == [[1, 2]]
    # Two who blocked each other, nobody else: no other seating exists.
    assert arena_tables([0, 1], rank, 3, short=True, apart=kept_apart([(0, 1)])) == [[0, 1]]


@settings(max_examples=40, deadline=None)
@given(
    count=st.integers(min_value=2, max_value=30),
    size=st.integers(min_value=2, max_value=5),
    blocked=st.integers(min_value=0, max_value=20),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_arena_tables_never_seat_blocked_players_together_while_tables_play(
    count: int, size: int, blocked: int, seed: int
) -> None:
    rng = random.Random(seed)
    players = list(range(count))
    waiting = players[:]
    rng.shuffle(waiting)
    rank = {p: i for i, p in enumerate(rng.sample(players, count))}
    apart = blocks(players, blocked, rng)
    tables = arena_tables(waiting, rank, size, apart=apart)
    seated = [p for t in tables for p in t]
    assert len(seated) == len(set(seated)) and all(len(t) == size for t in tables)
    assert all(t == sorted(t, key=rank.__getitem__) for t in tables)
    assert kept_together(tables, apart) == 0
    # Without blocks, the same call seats as many tables as the waiting fill.
    assert len(arena_tables(waiting, rank, size)) == count // size


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
