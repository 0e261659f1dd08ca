"""Who sits with whom in a tournament: pure functions (no Django, no clock, no randomness).

- ``table_sizes``: a round's tables, as even as they come (the short ones filled by bots).
- ``swiss_tables``: players in standing order, seated at tables of the table size so that as few
  pairs as can be meet again; among the seatings with the fewest repeats, the one nearest the
  standing order (the top players together, then the next ones, ...).
- ``arena_tables``: the waiting players, the one waiting longest first, each with the waiting
  players nearest in standing.
- ``duplicate_seats``: a duplicate table's seats for each deal, rotated so that over a round each
  player holds each hand once.

The service calls them under the tournament's lock (``service.tournaments``); ``bench/
tournament.py`` times a Swiss round of 10,000 players.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import TypeVar

Player = int
Met = Mapping[Player, Collection[Player]]  # the players each has already sat with
Seat = TypeVar("Seat")  # a player, or an empty seat a bot fills

# Seatings of up to this many players are searched exhaustively (within ``SEARCH_BUDGET`` steps):
# the fewest repeats there are, then the order. Larger rounds are seated greedily, then repaired.
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
    count = 0
    for table in tables:
        for i, player in enumerate(table):
            seen = met.get(player, ())
            count += sum(1 for other in table[i + 1 :] if other in seen)
    return count


def _conflicts(player: Player, group: Sequence[Player], met: Met) -> int:
    seen = met.get(player, ())
    return sum(1 for other in group if other in seen)


def swiss_tables(order: Sequence[Player], size: int, met: Met) -> list[list[Player]]:
    """A Swiss round: ``order`` (the standings, best first) at tables of ``size`` (``table_sizes``),
    each table in standing order; the fewest repeat meetings, then the nearest to the order."""
    if not order:
        return []
    capacities = table_sizes(len(order), size)
    if len(order) <= EXACT_LIMIT:
        return _searched(list(order), capacities, met)
    tables = _greedy(list(order), capacities, met)
    _repair(tables, met)
    rank = {player: index for index, player in enumerate(order)}
    return [sorted(table, key=rank.__getitem__) for table in tables]


def _searched(order: list[Player], capacities: list[int], met: Met) -> list[list[Player]]:
    """Branch and bound over the seatings: each table headed by the best unseated player, each
    next seat trying first the players who add the fewest repeats, the better ranked first; the
    first seating found with the fewest repeats (within ``SEARCH_BUDGET`` steps)."""
    rank = {player: index for index, player in enumerate(order)}
    best: list[list[Player]] | None = None
    best_cost = len(order) ** 2
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
            (_conflicts(player, table, met), rank[player], index)
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
        return _greedy(order, capacities, met)
    return best


def _greedy(order: list[Player], capacities: list[int], met: Met) -> list[list[Player]]:
    """Each table: the best unseated player, then the next best who met nobody there yet (within
    ``WINDOW`` places), else the one who met the fewest."""
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
            chosen, fewest = -1, cap
            index, looked = head, 0
            while index < count and looked < WINDOW:
                clashes = _conflicts(order[index], table, met)
                if clashes < fewest:
                    chosen, fewest = index, clashes
                    if clashes == 0:
                        break
                index, looked = after[index], looked + 1
            take(chosen)
            table.append(order[chosen])
        tables.append(table)
    return tables


def _repair(tables: list[list[Player]], met: Met, passes: int = 3) -> None:
    """Swap players between nearby tables while a swap lowers the repeats."""
    for _ in range(passes):
        improved = False
        for t, table in enumerate(tables):
            for i, player in enumerate(table):
                rest = table[:i] + table[i + 1 :]
                here = _conflicts(player, rest, met)
                if here == 0:
                    continue
                if _swap_away(tables, t, i, rest, here, met):
                    improved = True
        if not improved:
            return


def _swap_away(
    tables: list[list[Player]], t: int, i: int, rest: list[Player], here: int, met: Met
) -> bool:
    player = tables[t][i]
    for distance in range(1, REPAIR_REACH + 1):
        for u in (t + distance, t - distance):
            if not 0 <= u < len(tables):
                continue
            other = tables[u]
            for j, candidate in enumerate(other):
                others = other[:j] + other[j + 1 :]
                gain = (
                    here
                    + _conflicts(candidate, others, met)
                    - _conflicts(player, others, met)
                    - _conflicts(candidate, rest, met)
                )
                if gain > 0:
                    tables[t][i], other[j] = candidate, player
                    return True
    return False


def arena_tables(
    waiting: Sequence[Player], rank: Mapping[Player, int], size: int, *, short: bool = False
) -> list[list[Player]]:
    """An arena's new tables: while ``size`` players wait, the one waiting longest (``waiting``
    is in that order) sits with the ``size - 1`` waiting players nearest in standing (``rank``:
    0 the best). With ``short`` (no table is playing), fewer than ``size`` waiting but two or more
    make a short table too (bots fill it). Each table in standing order."""
    pool = list(waiting)
    tables: list[list[Player]] = []
    while len(pool) >= size or (short and not tables and len(pool) >= 2):
        first = pool[0]
        nearest = sorted(pool[1:], key=lambda p: (abs(rank[p] - rank[first]), rank[p]))
        table = sorted([first, *nearest[: size - 1]], key=rank.__getitem__)
        tables.append(table)
        seated = set(table)
        pool = [p for p in pool if p not in seated]
    return tables


def duplicate_seats(players: Sequence[Seat], deal: int, table: int) -> list[Seat]:
    """A duplicate table's seats for ``deal`` (0, 1, ...): rotated by one seat each deal (and by
    the table's number, so the tables' rotations differ), so that over as many deals as seats
    each player holds each hand (seat) once."""
    count = len(players)
    return [players[(seat + deal + table) % count] for seat in range(count)]
