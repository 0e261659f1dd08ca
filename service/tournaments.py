"""Tournaments: a host creates one; players join and withdraw; the detail is the fold of its log.

Every change is an entry of the tournament's own append-only log (``games.tournament_log``),
appended under a lock on the tournament's row with the projections it changes (``Tournament``'s
status, round and version, ``Entrant``, ``TournamentTable``) in one transaction. What runs a
tournament (the start, each round's pairing, the results, the end) is ``service.
tournament_steps``; the pairing and the standings themselves are pure (``games.pairing``,
``games.standings``).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from games import tournament_log as log
from games.engine import limits
from games.models import (
    Entrant,
    Tournament,
    TournamentFormat,
    TournamentStatus,
)
from players import services as players_services
from players.locks import lock_player
from players.models import Bot
from service import lobby, tournament_steps
from service.tournament_records import (
    append,
    ends_at,
    folded_log,
    sealed_rounds,
    standing_json,
    standings_of,
    table_spec,
)
from unoservice.errors import DomainError, invalid_value

# Settings of a game's creation body a tournament does not take: the table size gives the
# seats, the tournament seats the players and the bots, and deals the cards.
NOT_TAKEN = ("max_players", "bots", "seed", "deck", "private", "bot_accounts", "bots_welcome")
ROUNDS_FORMATS = (TournamentFormat.SWISS, TournamentFormat.DUPLICATE)


@dataclass(frozen=True)
class NewTournament:
    name: str
    format: str
    table_size: int
    settings: dict[str, Any]
    starts_at: datetime
    rounds: int | None = None
    minutes: int | None = None
    bots_allowed: bool = False


def taken(settings: dict[str, Any], given: set[str]) -> dict[str, Any]:
    """The settings every table keeps of a validated creation body (``given``: the keys sent)."""
    refused = sorted(given & set(NOT_TAKEN))
    if refused:
        raise invalid_value(
            f"settings.{refused[0]}",
            f"A tournament's settings take no {', '.join(refused)}: the tournament seats its "
            "tables (table_size) and deals them.",
        )
    if settings.get("bot_takeover"):
        # A bot playing on for a seat that resigned won or lost the table for its player: one
        # who left at the first move could win the tournament (and its rating).
        raise invalid_value(
            "settings.bot_takeover",
            "A tournament's tables play without bot takeover: a seat that leaves forfeits.",
        )
    return {name: value for name, value in settings.items() if name not in NOT_TAKEN}


def _check(host: User, new: NewTournament, now: datetime) -> None:
    if not limits.TABLE_SIZE.holds(new.table_size):
        raise DomainError("invalid_table_size", limits.TABLE_SIZE.message())
    if new.starts_at <= now:
        raise DomainError("start_in_past", "'starts_at' must be in the future.")
    if new.starts_at > now + timedelta(days=limits.TOURNAMENT_AHEAD_DAYS):
        raise DomainError(
            "start_in_past", f"'starts_at' must be within {limits.TOURNAMENT_AHEAD_DAYS} days."
        )
    if new.format in ROUNDS_FORMATS:
        if new.minutes is not None:
            raise invalid_value("minutes", f"A {new.format} tournament has rounds, not minutes.")
        if not limits.TOURNAMENT_ROUNDS.holds(new.rounds):
            raise invalid_value("rounds", limits.TOURNAMENT_ROUNDS.message())
    else:
        if new.rounds is not None:
            raise invalid_value("rounds", "An arena lasts 'minutes', it has no rounds.")
        if not limits.TOURNAMENT_MINUTES.holds(new.minutes):
            raise invalid_value("minutes", limits.TOURNAMENT_MINUTES.message())
    lobby.game_build(player=host, spec=table_spec(new.settings, new.table_size))


def tournament_create(*, host: User, new: NewTournament) -> Tournament:
    now = timezone.now()
    _check(host, new, now)
    with transaction.atomic():
        tournament = Tournament.objects.create(
            host=host,
            name=new.name,
            format=new.format,
            table_size=new.table_size,
            settings=new.settings,
            starts_at=new.starts_at,
            rounds=new.rounds,
            minutes=new.minutes,
            bots_allowed=new.bots_allowed,
        )
        data = {
            "host": host.pk,
            "name": new.name,
            "format": new.format,
            "table_size": new.table_size,
            "settings": new.settings,
            "starts_at": new.starts_at.isoformat(),
            "rounds": new.rounds,
            "minutes": new.minutes,
            "bots_allowed": new.bots_allowed,
        }
        append(tournament, None, log.CREATED, data, now)
        tournament_steps.after_commit(str(tournament.pk), tournament_steps.heads_up_at(tournament))
        tournament_steps.after_commit(str(tournament.pk), new.starts_at)
    return tournament


def _locked(tournament_id: str) -> Tournament:
    found = tournament_get(tournament_id)  # 404 for an id that is none
    return Tournament.objects.select_for_update().get(pk=found.pk)


def is_bot_account(user: User) -> bool:
    """A player's own account marked as a bot account (``players.BotAccount``)."""
    return players_services.is_bot_account(user)


def entrant_allowed(tournament: Tournament, user: User) -> None:
    """The one check of who may enter ``tournament``: a built-in bot never (bots only fill the
    tables the tournament seats), a bot account only when its host allows bots. The player's
    row is locked first, as ``players.services.bot_account_mark`` locks it: a mark racing the
    join is read here, or reads the entry and is refused (``in_tournament_without_bots``)."""
    lock_player(user.pk)
    if Bot.objects.filter(user=user).exists():
        raise DomainError("bots_not_allowed", "Built-in bots do not enter tournaments.")
    if is_bot_account(user) and not tournament.bots_allowed:
        raise DomainError("bots_not_allowed", "This tournament's host does not allow bots.")


def tournament_join(*, player: User, tournament_id: str) -> Tournament:
    now = timezone.now()
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.status == TournamentStatus.FINISHED:
            raise DomainError("tournament_finished", "The tournament is over.")
        end = ends_at(tournament)
        if tournament.status == TournamentStatus.RUNNING:
            if tournament.format != TournamentFormat.ARENA:
                raise DomainError("tournament_started", "The tournament has started.")
            if end is not None and now >= end:
                raise DomainError("tournament_finished", "The arena's time is up.")
        entrant_allowed(tournament, player)
        entrant = Entrant.objects.filter(tournament=tournament, player=player).first()
        if entrant is not None and entrant.withdrawn_at is None:
            raise DomainError("tournament_already_joined", "You take part already.")
        if entrant is None:
            _require_room(tournament)
            Entrant.objects.create(tournament=tournament, player=player, joined_at=now)
        else:
            entrant.withdrawn_at = None
            entrant.save(update_fields=["withdrawn_at"])
        append(tournament, None, log.JOINED, {"player": player.pk}, now)
        if tournament.status == TournamentStatus.RUNNING:  # an arena seats them when it can
            tournament_steps.after_commit(str(tournament.pk))
    return tournament


def _require_room(tournament: Tournament) -> None:
    """A new player may join while the tournament has fewer than ``UNO_TOURNAMENT_MAX_PLAYERS``
    (who withdrew count: one who comes back always may, and the round's locks take them too)."""
    most = settings.UNO_TOURNAMENT_MAX_PLAYERS
    if Entrant.objects.filter(tournament=tournament).count() >= most:
        raise DomainError("tournament_full", f"The tournament takes at most {most} players.")


def tournament_withdraw(*, player: User, tournament_id: str) -> Tournament:
    """Stop taking new tables: a running game goes on by its clock."""
    now = timezone.now()
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.status == TournamentStatus.FINISHED:
            raise DomainError("tournament_finished", "The tournament is over.")
        entrant = Entrant.objects.filter(
            tournament=tournament, player=player, withdrawn_at__isnull=True
        ).first()
        if entrant is None:
            raise DomainError("tournament_not_joined", "You do not take part in it.")
        entrant.withdrawn_at = now
        entrant.save(update_fields=["withdrawn_at"])
        append(tournament, None, log.WITHDREW, {"player": player.pk}, now)
        if tournament.status == TournamentStatus.RUNNING:
            tournament_steps.after_commit(str(tournament.pk))
    return tournament


# --- reads ---------------------------------------------------------------------------------------


def tournament_get(tournament_id: str) -> Tournament:
    try:
        key = uuid.UUID(str(tournament_id))
    except ValueError:
        raise DomainError("not_found", "No such tournament.") from None
    tournament = Tournament.objects.select_related("host").filter(pk=key).first()
    if tournament is None:
        raise DomainError("not_found", "No such tournament.")
    return tournament


def tournament_list(*, status: str | None = None, mine: User | None = None) -> QuerySet[Tournament]:
    taking_part = (
        Entrant.objects.filter(tournament=OuterRef("pk"), withdrawn_at__isnull=True)
        .order_by()
        .values("tournament")
        .annotate(count=Count("pk"))
        .values("count")
    )
    rows = (
        Tournament.objects.select_related("host")
        .annotate(player_count=Coalesce(Subquery(taking_part), 0))
        .order_by("-starts_at", "-created_at")
    )
    if status:
        rows = rows.filter(status=status)
    if mine is not None:
        rows = rows.filter(entrants__player=mine)
    return rows


def _ref(user_id: int, names: dict[int, str]) -> dict[str, Any]:
    return {"id": user_id, "username": names.get(user_id, "")}


def _summary(tournament: Tournament) -> dict[str, Any]:
    end = ends_at(tournament)
    return {
        "id": str(tournament.pk),
        "name": tournament.name,
        "host": {"id": tournament.host_id, "username": tournament.host.get_username()},
        "format": tournament.format,
        "table_size": tournament.table_size,
        "settings": tournament.settings,
        "starts_at": tournament.starts_at,
        "ends_at": end,
        "round_count": tournament.rounds,
        "minutes": tournament.minutes,
        "bots_allowed": tournament.bots_allowed,
        "status": tournament.status,
        "round": tournament.round,
        "version": tournament.version,
        "created_at": tournament.created_at,
    }


def tournament_summary(tournament: Tournament) -> dict[str, Any]:
    """A row of the list (``tournament_list`` counts its players)."""
    body = _summary(tournament)
    player_count: int | None = getattr(tournament, "player_count", None)
    if player_count is None:
        player_count = Entrant.objects.filter(
            tournament=tournament, withdrawn_at__isnull=True
        ).count()
    body["player_count"] = player_count
    return body


def tournament_detail(tournament: Tournament, viewer: User | None = None) -> dict[str, Any]:
    """The tournament as anyone may see it: its players, rounds, tables (game ids and the
    players by seat, never a card) and standings; ``you``: the caller's part in it."""
    folded = folded_log(tournament)
    bots = {p for t in folded.tables for s, p in enumerate(t.seats) if s in t.bots}
    ids = list({*folded.players, *bots})
    names = dict(User.objects.filter(pk__in=ids).values_list("pk", "username"))
    sealed = sealed_rounds(tournament, folded)
    table = standings_of(tournament, folded, sealed)
    body = _summary(tournament)
    programs = players_services.bot_accounts_among(folded.players)
    body["player_count"] = len(folded.active)
    body["players"] = [
        {**_ref(p, names), "withdrawn": p in folded.withdrawn, "bot_account": p in programs}
        for p in folded.players
    ]
    body["rounds"] = [
        {
            "number": number,
            "revealed": number in folded.revealed_rounds,
            "tables": [
                {
                    "table": t.table,
                    "deal": t.deal,
                    "game": t.game,
                    "seats": t.seats,
                    "bots": t.bots,
                    "finished": t.result is not None,
                    "places": None
                    if t.result is None or t.round in sealed
                    else list(t.result.places),
                }
                for t in tables
            ],
        }
        for number, tables in folded.rounds()
    ]
    body["standings"] = [standing_json(row, names, programs) for row in table]
    you = None
    if viewer is not None and viewer.pk in folded.players:
        playing = [t.game for t in folded.tables if t.result is None and viewer.pk in t.seats]
        you = {
            "withdrawn": viewer.pk in folded.withdrawn,
            "table": playing[-1] if playing else None,
        }
    body["you"] = you
    return body
