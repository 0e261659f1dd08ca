"""The best seating any pairing can find, by searching every seating: the fewest pairs kept apart
(a block) seated together, then the fewest repeat meetings. What the pairing (``games.pairing.
swiss_tables``) is checked against, in unit tests and whole tournaments."""

from __future__ import annotations

import itertools
from collections.abc import Collection, Mapping

Related = Mapping[int, Collection[int]]


def fewest_clashes(
    players: list[int], sizes: list[int], met: Related, apart: Related | None = None
) -> tuple[int, int]:
    """Every seating of ``players`` at tables of ``sizes``, searched: the least (pairs kept apart
    together, repeats), compared in that order."""
    kept = apart or {}
    best = (len(players) ** 2, len(players) ** 2)

    def together(table: list[int], related: Related) -> int:
        return sum(1 for a, b in itertools.combinations(table, 2) if b in related.get(a, ()))

    def search(free: list[int], caps: list[int], cost: tuple[int, int]) -> None:
        nonlocal best
        if cost > best:
            return
        if not caps:
            best = min(best, cost)
            return
        first, rest = free[0], free[1:]
        for cap in set(caps):
            left = list(caps)
            left.remove(cap)
            for others in itertools.combinations(rest, cap - 1):
                table = [first, *others]
                added = (cost[0] + together(table, kept), cost[1] + together(table, met))
                search([p for p in rest if p not in others], left, added)

    search(players, sizes, (0, 0))
    return best


def fewest_repeats(players: list[int], sizes: list[int], met: Related) -> int:
    """Every seating of ``players`` at tables of ``sizes``, searched: the fewest repeats."""
    return fewest_clashes(players, sizes, met)[1]
