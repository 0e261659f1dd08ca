"""A tournament's log folded into what it shows (pure): its players, rounds, tables and results.

``fold(entries)`` replays the log (``games.tournament_log``) from the first entry: the detail view
is this fold and the standings of its results (``games.standings``), so a tournament replays like
a game, and the service pairs from the same fold.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games import tournament_log as log
from games.standings import Result

Entry = Mapping[str, Any]  # {"seq", "type", "data"}


@dataclass
class Table:
    round: int
    table: int
    deal: int
    game: str
    seats: list[int]
    bots: list[int]
    result: Result | None = None


@dataclass
class Folded:
    status: str = "upcoming"
    players: list[int] = field(default_factory=list)  # every entrant, in the order of joining
    withdrawn: set[int] = field(default_factory=set)
    start_near: bool = False  # the players entered were told that the start is near
    told: set[int] = field(default_factory=set)  # the players told so (``tournament_starting``)
    tables: list[Table] = field(default_factory=list)  # in the order they were seated
    results: list[Result] = field(default_factory=list)  # in the order the tables finished
    revealed_rounds: set[int] = field(default_factory=set)
    round: int = 0
    version: int = 0
    final: list[dict[str, Any]] | None = None
    by_game: dict[str, Table] = field(default_factory=dict)

    @property
    def active(self) -> list[int]:
        """The players who have not withdrawn."""
        return [p for p in self.players if p not in self.withdrawn]

    def rounds(self) -> list[tuple[int, list[Table]]]:
        grouped: dict[int, list[Table]] = {}
        for table in self.tables:
            grouped.setdefault(table.round, []).append(table)
        return sorted(grouped.items())

    def met(self) -> dict[int, set[int]]:
        """Who has sat at a table with whom (bots' seats left out)."""
        seen: dict[int, set[int]] = {player: set() for player in self.players}
        for table in self.tables:
            people = [p for seat, p in enumerate(table.seats) if seat not in table.bots]
            for player in people:
                seen.setdefault(player, set()).update(p for p in people if p != player)
        return seen

    def playing(self) -> set[int]:
        """The players seated at a table whose result is not in."""
        return {
            p
            for table in self.tables
            if table.result is None
            for seat, p in enumerate(table.seats)
            if seat not in table.bots
        }


def _table(data: Mapping[str, Any]) -> Table:
    return Table(
        round=int(data["round"]),
        table=int(data["table"]),
        deal=int(data.get("deal", 0)),
        game=str(data["game"]),
        seats=[int(p) for p in data["seats"]],
        bots=[int(s) for s in data.get("bots", [])],
    )


def fold(entries: Iterable[Entry]) -> Folded:
    folded = Folded()
    for entry in entries:
        apply(folded, entry)
    return folded


def apply(folded: Folded, entry: Entry) -> None:
    """Fold one more entry into ``folded``."""
    kind, data = entry["type"], entry["data"]
    folded.version = int(entry["seq"])
    if kind == log.JOINED:
        player = int(data["player"])
        if player not in folded.players:
            folded.players.append(player)
        folded.withdrawn.discard(player)
    elif kind == log.WITHDREW:
        folded.withdrawn.add(int(data["player"]))
    elif kind == log.STARTED:
        folded.status = "running"
    elif kind == log.START_NEAR:
        folded.start_near = True
        folded.told.update(int(p) for p in data["players"])
    elif kind in (log.ROUND_PAIRED, log.TABLE_SEATED):
        for raw in data["tables"] if kind == log.ROUND_PAIRED else [data]:
            table = _table(raw)
            folded.tables.append(table)
            folded.by_game[table.game] = table
            folded.round = max(folded.round, table.round)
    elif kind == log.TABLE_FINISHED:
        table = folded.by_game[str(data["game"])]
        places = {int(p["seat"]): int(p["place"]) for p in data["places"]}
        winner = data.get("winner")
        table.result = Result(
            round=table.round,
            table=table.table,
            deal=table.deal,
            seats=tuple(table.seats),
            places=tuple(places[seat] for seat in range(len(table.seats))),
            winner=None if winner is None else int(winner),
        )
        folded.results.append(table.result)
    elif kind == log.ROUND_FINISHED:
        folded.revealed_rounds.add(int(data["round"]))
    elif kind == log.FINISHED:
        folded.status = "finished"
        folded.final = list(data.get("standings", []))
