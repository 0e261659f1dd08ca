"""The fewest repeat meetings any seating can have, by searching every seating: what the Swiss
pairing (``games.pairing.swiss_tables``) is checked against, in unit tests and whole tournaments."""

from __future__ import annotations

import itertools


def fewest_repeats(players: list[int], sizes: list[int], met: dict[int, set[int]]) -> int:
    """Every seating of ``players`` at tables of ``sizes``, searched: the fewest repeats."""
    best = len(players) ** 2

    def search(free: list[int], caps: list[int], cost: int) -> None:
        nonlocal best
        if not caps:
            best = min(best, cost)
            return
        first, rest = free[0], free[1:]
        for cap in set(caps):
            left = list(caps)
            left.remove(cap)
            for others in itertools.combinations(rest, cap - 1):
                table = [first, *others]
                added = sum(1 for a, b in itertools.combinations(table, 2) if b in met[a])
                search([p for p in rest if p not in others], left, cost + added)

    search(players, sizes, 0)
    return best
