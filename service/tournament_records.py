"""A tournament's records: its log's entries and the projections written with them, the fold
of its log, its standings (``games.standings``, from the fold's results), and the game its tables
are created with. Shared by the commands (``service.tournaments``) and the steps that run a
tournament (``service.tournament_steps``).
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.db import connection, transaction

from games import standings as scoring
from games import tournament_log as log
from games.models import Tournament, TournamentEntry, TournamentFormat
from games.serializers import bank_of
from games.tournament_fold import Folded, apply, fold
from players.models import Rating
from players.ratings import shown
from service import lobby
from streams.hub import publish_topic_committed


def table_spec(settings: dict[str, Any], table_size: int) -> lobby.NewGame:
    """The game every table of the tournament is created with."""
    fields = {**settings, "bank": bank_of(settings.get("clock"))}
    fields.pop("clock", None)
    return lobby.NewGame(max_players=table_size, **fields)


def append(
    tournament: Tournament, folded: Folded | None, kind: str, data: Any, at: datetime
) -> None:
    """Append an entry to the locked ``tournament``'s log and save its row (status, round,
    version); ``folded``, the fold so far, takes the entry too."""
    assert kind in log.TYPES, kind
    tournament.version += 1
    entry = TournamentEntry.objects.create(
        tournament=tournament, seq=tournament.version, type=kind, data=data, at=at
    )
    if folded is not None:
        apply(folded, entry_json(entry))
        tournament.round = folded.round
    tournament.save(update_fields=["version", "status", "round"])
    if connection.vendor != "postgresql":  # on PostgreSQL a trigger's NOTIFY tells the streams
        transaction.on_commit(partial(publish_topic_committed, str(tournament.pk)))


def entry_json(entry: TournamentEntry) -> dict[str, Any]:
    """A log entry as the tournament's stream shows it and the fold reads it."""
    return {"seq": entry.seq, "type": entry.type, "at": entry.at.isoformat(), "data": entry.data}


def ends_at(tournament: Tournament) -> datetime | None:
    """An arena's end: no game starts after it."""
    if tournament.minutes is None:
        return None
    return tournament.starts_at + timedelta(minutes=tournament.minutes)


def folded_log(tournament: Tournament) -> Folded:
    entries = TournamentEntry.objects.filter(tournament=tournament).order_by("seq")
    return fold(entry_json(entry) for entry in entries)


def entries_after(tournament_id: str, after: int, limit: int) -> list[TournamentEntry]:
    return list(
        TournamentEntry.objects.filter(tournament_id=tournament_id, seq__gt=after).order_by("seq")[
            :limit
        ]
    )


def ratings_of(players: list[int]) -> dict[int, float]:
    """Each player's rating ordinal (the starting one for a player not rated yet)."""
    rows = {row.user_id: row for row in Rating.objects.filter(user_id__in=players)}
    return {player: shown(rows.get(player)).ordinal for player in players}


def standings_of(
    tournament: Tournament, folded: Folded, hidden: Collection[int] = ()
) -> list[scoring.Standing]:
    """The standings: computed in one place (``games.standings``) from the finished tables;
    those of the rounds ``hidden`` left out (``sealed_rounds``: as anyone may see them)."""
    results = [result for result in folded.results if result.round not in hidden]
    return scoring.standings(tournament.format, results, folded.players, ratings_of(folded.players))


# A duplicate round's results stay unsaid until the round is revealed (``round_finished``), as its
# games stay sealed: every table plays a deal with the same cards by seat, so a table's places or
# winner, told while another table still plays that deal, say how strong each seat's hand is
# (and the standings' wins say who won). The log keeps them; the detail, its standings and the
# public stream show them once the round is revealed.
SEALED_RESULT = ("places", "winner")


def sealed_rounds(tournament: Tournament, folded: Folded) -> set[int]:
    """The rounds whose results are not shown yet: a duplicate tournament's unrevealed ones."""
    if tournament.format != TournamentFormat.DUPLICATE:
        return set()
    return {table.round for table in folded.tables} - folded.revealed_rounds


def entries_shown(tournament_id: str, rows: list[TournamentEntry]) -> list[dict[str, Any]]:
    """``rows`` as the public stream shows them (``entry_json``): a ``table_finished`` of a
    duplicate round not yet revealed without its places and winner (``SEALED_RESULT``)."""
    results = {int(row.data["round"]) for row in rows if row.type == log.TABLE_FINISHED}
    hidden: set[int] = set()
    duplicate = Tournament.objects.filter(pk=tournament_id, format=TournamentFormat.DUPLICATE)
    if results and duplicate.exists():
        revealed = TournamentEntry.objects.filter(
            tournament_id=tournament_id, type=log.ROUND_FINISHED
        ).values_list("data__round", flat=True)
        hidden = results - {int(number) for number in revealed}
    shown = []
    for row in rows:
        body = entry_json(row)
        if row.type == log.TABLE_FINISHED and int(row.data["round"]) in hidden:
            body["data"] = {k: v for k, v in row.data.items() if k not in SEALED_RESULT}
        shown.append(body)
    return shown


def standing_json(
    row: scoring.Standing, names: dict[int, str], programs: Collection[int]
) -> dict[str, Any]:
    """A row of the standings, as the detail and the log's last entry show it; ``programs``: the
    players who are bot accounts (``players.services.bot_accounts_among``), marked."""
    return {
        "player": row.player,
        "username": names.get(row.player, ""),
        "bot_account": row.player in programs,
        "points": row.points,
        "tiebreak": row.tiebreak,
        "games": row.games,
        "wins": row.wins,
        "rating": row.rating,
        "streak": row.streak,
    }
