"""Who sits with whom in a tournament: pure functions (no Django, no clock, no randomness).

- ``table_sizes``: a round's tables, as even as they come (the short ones filled by bots).
- ``swiss_tables``: players in standing order, seated at tables of the table size so that no two
  players kept apart (a block, either way) share a table where another seating exists, then as
  few pairs as can be meet again; among those seatings, the one nearest the standing order (the
  top players together, then the next ones, ...).
- ``arena_tables``: the waiting players, the one waiting longest first, each with the waiting
  players nearest in standing whom nobody at the table is kept apart from.
- ``duplicate_seats``: a duplicate table's seats for each deal, rotated so that over a round each
  player holds each hand once.

The service calls them under the tournament's lock (``service.tournaments``); ``bench/
tournament.py`` times a Swiss round of 10,000 players.
"""

from __future__ import annotations

import sys
from collections.abc import Collection, Mapping, Sequence
from typing import TypeVar

Player = int
Met = Mapping[Player, Collection[Player]]  # the players each has already sat with
# The players each is kept apart from (a block, either way): every pair listed under both.
Apart = Mapping[Player, Collection[Player]]
Seat = TypeVar("Seat")  # a player, or an empty seat a bot fills

# Seatings of up to this many players are searched exhaustively (within ``SEARCH_BUDGET`` steps):
# the fewest pairs kept apart together there are, then the fewest repeats, then the order. Larger
# rounds are seated greedily, then repaired.
EXACT_LIMIT = 16
SEARCH_BUDGET = 50_000
# The greedy seating looks this far down the standings for a player who has met nobody at the
# table; the repair swaps players with tables at most this far apart.
WINDOW = 64
REPAIR_REACH = 8


def table_sizes(count: int, size: int) -> list[int]:
    """The seats taken by players at each of a round's tables: ``ceil(count / size)`` tables,
    larger first, no two differing by more than one."""
    if count <= 0:
        return []
    tables = -(-count // size)
    base, extra = divmod(count, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def repeats(tables: Sequence[Sequence[Player]], met: Met) -> int:
    """The pairs seated together who had met before."""
    return _pairs_together(tables, met)


def kept_together(tables: Sequence[Sequence[Player]], apart: Apart) -> int:
    """The pairs seated together who are kept apart (what a pairing avoids first)."""
    return _pairs_together(tables, apart)


def _pairs_together(
    tables: Sequence[Sequence[Player]], related: Mapping[Player, Collection[Player]]
) -> int:
    count = 0
    for table in tables:
        for i, player in enumerate(table):
            others = related.get(player, ())
            count += sum(1 for other in table[i + 1 :] if other in others)
    return count


class Clashes:
    """What seating a player with a group costs: one for each player there they met before, and
    for each one they are kept apart from more than every repeat a seating of the round can hold,
    so that no number of repeats avoided is worth two players kept apart at one table (the
    searches below minimize one number; this weight makes it "apart first, then repeats")."""

    __slots__ = ("apart", "met", "weight")

    def __init__(self, met: Met, apart: Apart, count: int, size: int) -> None:
        self.met = met
        self.apart = apart
        # A seating of ``count`` players at tables of ``size`` seats fewer than count * size pairs.
        self.weight = count * size + 1

    def __call__(self, player: Player, group: Sequence[Player]) -> int:
        seen = self.met.get(player, ())
        cost = sum(1 for other in group if other in seen)
        kept = self.apart.get(player)
        if kept:
            cost += self.weight * sum(1 for other in group if other in kept)
        return cost


def swiss_tables(
    order: Sequence[Player], size: int, met: Met, apart: Apart | None = None
) -> list[list[Player]]:
    """A Swiss round: ``order`` (the standings, best first) at tables of ``size`` (``table_sizes``),
    each table in standing order; no two players kept apart (``apart``) at one table where
    another seating exists, then the fewest repeat meetings, then the nearest to the order."""
    if not order:
        return []
    capacities = table_sizes(len(order), size)
    clashes = Clashes(met, apart or {}, len(order), size)
    if len(order) <= EXACT_LIMIT:
        return _searched(list(order), capacities, clashes)
    tables = _greedy(list(order), capacities, clashes)
    _repair(tables, clashes)
    _part(tables, clashes)
    rank = {player: index for index, player in enumerate(order)}
    return [sorted(table, key=rank.__getitem__) for table in tables]


def _searched(order: list[Player], capacities: list[int], clashes: Clashes) -> list[list[Player]]:
    """Branch and bound over the seatings: each table headed by the best unseated player, each
    next seat trying first the players who add the least cost (``Clashes``), the better ranked
    first; the first seating found with the least (within ``SEARCH_BUDGET`` steps)."""
    rank = {player: index for index, player in enumerate(order)}
    best: list[list[Player]] | None = None
    best_cost = sys.maxsize
    steps = 0
    remaining = {cap: capacities.count(cap) for cap in set(capacities)}

    def done() -> bool:
        return best_cost == 0 or steps > SEARCH_BUDGET

    def fill(
        tables: list[list[Player]], free: list[Player], cost: int, table: list[Player], cap: int
    ) -> None:
        nonlocal steps
        steps += 1
        if cost >= best_cost or steps > SEARCH_BUDGET:
            return
        if len(table) == cap:
            place([*tables, table], free, cost)
            return
        last = rank[table[-1]]
        candidates = sorted(
            (clashes(player, table), rank[player], index)
            for index, player in enumerate(free)
            if rank[player] > last
        )
        for added, _, index in candidates:
            player = free[index]
            fill(tables, free[:index] + free[index + 1 :], cost + added, [*table, player], cap)
            if done():
                return

    def place(tables: list[list[Player]], free: list[Player], cost: int) -> None:
        nonlocal best, best_cost
        if not free:
            if cost < best_cost:
                best, best_cost = tables, cost
            return
        for cap in sorted((c for c, n in remaining.items() if n), reverse=True):
            remaining[cap] -= 1
            fill(tables, free[1:], cost, [free[0]], cap)
            remaining[cap] += 1
            if done():
                return

    place([], order, 0)
    if best is None:  # the budget ran out before a first seating: the greedy one
        return _greedy(order, capacities, clashes)
    return best


def _greedy(order: list[Player], capacities: list[int], clashes: Clashes) -> list[list[Player]]:
    """Each table: the best unseated player, then the next best who met nobody there yet (within
    ``WINDOW`` places), else the one who costs the least there (``Clashes``)."""
    count = len(order)
    after = list(range(1, count + 1))  # a linked list of the unseated, by index in ``order``
    before = list(range(-1, count - 1))
    head = 0

    def take(index: int) -> None:
        nonlocal head
        prev, nxt = before[index], after[index]
        if prev >= 0:
            after[prev] = nxt
        else:
            head = nxt
        if nxt < count:
            before[nxt] = prev

    tables: list[list[Player]] = []
    for cap in capacities:
        first = head
        take(first)
        table = [order[first]]
        while len(table) < cap:
            chosen, fewest = -1, sys.maxsize
            index, looked = head, 0
            while index < count and looked < WINDOW:
                cost = clashes(order[index], table)
                if cost < fewest:
                    chosen, fewest = index, cost
                    if cost == 0:
                        break
                index, looked = after[index], looked + 1
            take(chosen)
            table.append(order[chosen])
        tables.append(table)
    return tables


def _repair(tables: list[list[Player]], clashes: Clashes, passes: int = 3) -> None:
    """Swap players between nearby tables while a swap lowers the cost (``Clashes``)."""
    _swaps(tables, clashes, 1, REPAIR_REACH, passes)


def _part(tables: list[list[Player]], clashes: Clashes, passes: int = 3) -> None:
    """The last resort for two players kept apart still at one table after the repair (the
    greedy seating's last tables take whoever is left): a swap with a table at any distance, the
    nearest first. Blocks are few: this costs nothing without them."""
    if clashes.apart:
        _swaps(tables, clashes, clashes.weight, len(tables), passes)


def _swaps(
    tables: list[list[Player]], clashes: Clashes, least: int, reach: int, passes: int
) -> None:
    """Each player who costs ``least`` or more at their table is swapped with a player of a table
    within ``reach`` if the swap lowers the cost; again while a pass swaps any."""
    for _ in range(passes):
        improved = False
        for t, table in enumerate(tables):
            for i, player in enumerate(table):
                rest = table[:i] + table[i + 1 :]
                here = clashes(player, rest)
                if here < least:
                    continue
                if _swap_away(tables, t, i, rest, here, clashes, reach):
                    improved = True
        if not improved:
            return


def _swap_away(
    tables: list[list[Player]],
    t: int,
    i: int,
    rest: list[Player],
    here: int,
    clashes: Clashes,
    reach: int,
) -> bool:
    player = tables[t][i]
    for distance in range(1, reach + 1):
        for u in (t + distance, t - distance):
            if not 0 <= u < len(tables):
                continue
            other = tables[u]
            for j, candidate in enumerate(other):
                others = other[:j] + other[j + 1 :]
                gain = (
                    here
                    + clashes(candidate, others)
                    - clashes(player, others)
                    - clashes(candidate, rest)
                )
                if gain > 0:
                    tables[t][i], other[j] = candidate, player
                    return True
    return False


def arena_tables(
    waiting: Sequence[Player],
    rank: Mapping[Player, int],
    size: int,
    *,
    short: bool = False,
    apart: Apart | None = None,
) -> list[list[Player]]:
    """An arena's new tables: while ``size`` players wait, the one waiting longest (``waiting``
    is in that order) sits with the ``size - 1`` waiting players nearest in standing (``rank``:
    0 the best). With ``short`` (no table is playing), fewer than ``size`` waiting but two or more
    make a short table too (bots fill it). Each table in standing order.

    Nobody sits with a player they are kept apart from (``apart``) where another seating exists:
    the next nearest sits instead, or, when no such table can be made around the one waiting
    longest, around the next one waiting; when none can be made at all, they wait for the tables
    playing to finish, and only when no table plays (``short``) do they sit as they come."""
    pool = list(waiting)
    kept = apart or {}
    tables: list[list[Player]] = []
    while len(pool) >= size or (short and not tables and len(pool) >= 2):
        alone = short and not tables  # no table plays: nobody comes back to seat them with
        table = _arena_table(pool, rank, size, kept, smallest=2 if alone else size)
        if table is None:
            if not alone:
                break
            table = _nearest(pool[0], pool, rank, min(size, len(pool)), {})
        tables.append(sorted(table, key=rank.__getitem__))
        seated = set(table)
        pool = [p for p in pool if p not in seated]
    return tables


def _arena_table(
    pool: list[Player], rank: Mapping[Player, int], size: int, apart: Apart, smallest: int
) -> list[Player] | None:
    """The largest table (from ``size`` down to ``smallest`` seats) that some waiting player,
    the one waiting longest first, can head with the nearest in standing kept apart from nobody
    at it; None when there is none."""
    for seats in range(min(size, len(pool)), smallest - 1, -1):
        for first in pool:
            table = _nearest(first, pool, rank, seats, apart)
            if len(table) == seats:
                return table
    return None


def _nearest(
    first: Player, pool: list[Player], rank: Mapping[Player, int], seats: int, apart: Apart
) -> list[Player]:
    """``first`` and, nearest in standing first, the players of ``pool`` kept apart from nobody
    taken so far, up to ``seats`` in all (fewer when the pool runs out of such players)."""
    table = [first]
    others = sorted(
        (p for p in pool if p != first), key=lambda p: (abs(rank[p] - rank[first]), rank[p])
    )
    for player in others:
        if len(table) == seats:
            break
        kept = apart.get(player, ())
        if not any(seated in kept for seated in table):
            table.append(player)
    return table


def duplicate_seats(players: Sequence[Seat], deal: int, table: int) -> list[Seat]:
    """A duplicate table's seats for ``deal`` (0, 1, ...): rotated by one seat each deal (and by
    the table's number, so the tables' rotations differ), so that over as many deals as seats
    each player holds each hand (seat) once."""
    count = len(players)
    return [players[(seat + deal + table) % count] for seat in range(count)]
