"""A tournament's standings from its finished tables' results: the one place they are computed
(pure: no Django). The detail view, the pairing of the next round and the final entry of the log
all read them from here.

- A table's placing gives points: first ``seats - 1``, last 0, equal places sharing theirs.
- ``swiss``: a game's points are its placing points.
- ``arena``: the same, doubled for a player whose two games before were both wins (Lichess's
  streak rule: on a streak, every game counts double until one is not won).
- ``duplicate``: the tables of a round play the same deals; a player's points for a deal are
  compared with those of every other player who held the same hand (seat) of it: 1 for each one
  they did better than, 1/2 for each tie.

The order: points, then the tiebreak (the sum of the points of the opponents met, once per game
met), then rating, then the player id.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

Player = int


@dataclass(frozen=True)
class Result:
    """A finished table: its players by seat and each seat's place (1 the best; equal places
    share), in the order the tables finished."""

    round: int
    table: int
    deal: int
    seats: tuple[Player, ...]
    places: tuple[int, ...]
    winner: Player | None


@dataclass(frozen=True)
class Standing:
    player: Player
    points: float
    tiebreak: float
    games: int
    wins: int
    rating: float
    streak: int  # wins in a row as of the player's last game (arena: 2 or more doubles)


def placing_points(places: Sequence[int]) -> list[float]:
    """Each seat's points for its place: first ``len(places) - 1``, last 0; seats with equal
    places share the points of the places they take up."""
    size = len(places)
    order = sorted(range(size), key=lambda seat: places[seat])
    points = [0.0] * size
    start = 0
    while start < size:
        end = start
        while end + 1 < size and places[order[end + 1]] == places[order[start]]:
            end += 1
        shared = sum(size - 1 - k for k in range(start, end + 1)) / (end - start + 1)
        for k in range(start, end + 1):
            points[order[k]] = shared
        start = end + 1
    return points


def game_points(fmt: str, results: Sequence[Result]) -> list[list[float]]:
    """Each result's points by seat, as the format counts them."""
    if fmt == "duplicate":
        return _matchpoints(results)
    placed = [placing_points(result.places) for result in results]
    if fmt != "arena":
        return placed
    history: dict[Player, list[bool]] = defaultdict(list)
    counted = []
    for result, points in zip(results, placed, strict=True):
        row = []
        for seat, player in enumerate(result.seats):
            won = history[player]
            on_fire = len(won) >= 2 and won[-1] and won[-2]
            row.append(points[seat] * 2 if on_fire else points[seat])
            won.append(result.winner == player)
        counted.append(row)
    return counted


def _matchpoints(results: Sequence[Result]) -> list[list[float]]:
    placed = [placing_points(result.places) for result in results]
    by_deal: dict[tuple[int, int], list[int]] = defaultdict(list)
    for index, result in enumerate(results):
        by_deal[(result.round, result.deal)].append(index)
    counted = []
    for index, result in enumerate(results):
        row = []
        for seat in range(len(result.seats)):
            mine = placed[index][seat]
            score = 0.0
            for other in by_deal[(result.round, result.deal)]:
                if other == index or seat >= len(results[other].seats):
                    continue
                theirs = placed[other][seat]
                score += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            row.append(score)
        counted.append(row)
    return counted


def standings(
    fmt: str,
    results: Sequence[Result],
    players: Iterable[Player],
    ratings: Mapping[Player, float],
) -> list[Standing]:
    """The standings of ``players`` (every entrant, withdrawn too) after ``results``, best first;
    seats of anyone else (a bot filling a table) count for nobody."""
    entrants = list(dict.fromkeys(players))
    taking_part = set(entrants)
    points = dict.fromkeys(entrants, 0.0)
    games = dict.fromkeys(entrants, 0)
    wins = dict.fromkeys(entrants, 0)
    streak = dict.fromkeys(entrants, 0)
    met: dict[Player, list[Player]] = {player: [] for player in entrants}
    for result, row in zip(results, game_points(fmt, results), strict=True):
        for seat, player in enumerate(result.seats):
            if player not in taking_part:
                continue
            points[player] += row[seat]
            games[player] += 1
            won = result.winner == player
            wins[player] += won
            streak[player] = streak[player] + 1 if won else 0
            met[player].extend(p for p in result.seats if p != player and p in taking_part)
    table = [
        Standing(
            player=player,
            points=points[player],
            tiebreak=sum(points[other] for other in met[player]),
            games=games[player],
            wins=wins[player],
            rating=ratings.get(player, 0.0),
            streak=streak[player],
        )
        for player in entrants
    ]
    table.sort(key=lambda s: (-s.points, -s.tiebreak, -s.rating, s.player))
    return table
