"""What runs a tournament: its start, each round's pairing, the results, the end.

``advance(tournament_id)`` takes every step that is due, under a lock on the tournament's row
(``select_for_update``), from its log: two workers that race both lock, and the second finds the
step taken (a round is paired once). It runs as a Celery task (``tournaments.advance``), queued
after the commit of what makes a step due: a tournament's creation (for its start), a join or a
withdrawal while it runs, and a finished table (the subscriber ``advance_tournaments`` of the
game write's facts). The beat sweep (``tournaments.sweep``) advances every tournament that is
due or running, so a lost task only delays a step. Without a broker the step runs in-process
after the commit; reads of a tournament whose start or end passed advance it first
(``caught_up``).

- swiss: a round when every table of the one before finished (``games.pairing.swiss_tables``);
  short tables filled by ``basic`` bots.
- duplicate: the same, and each table plays as many deals as it has seats, one after the other,
  each deal's game at every table from the same seed and salt (so the same deck commitment),
  the seats rotated (``duplicate_seats``); the round's games stay sealed (private, their cards
  and seeds hidden) until every table has played every deal.
- arena: until its end, the players not at a table are seated as soon as enough of them wait
  (``arena_tables``); after it, it ends when the last game does.
- Before the start: ``UNO_TOURNAMENT_HEADS_UP`` seconds before it, the players entered then are
  told that it starts soon (``tournament_starting``, the log's ``start_near``); those who join
  later are told at the start. Each player is told once.
- Every format keeps players who blocked one another (either way: ``players.safety.
  apart_among``) at different tables where another seating exists, before any repeat meeting.
  The blocks are read at each pairing and never written to the log (its stream is public).
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from games import eventstore
from games import tournament_log as log
from games.fairness import new_salt
from games.models import (
    Game,
    GameStatus,
    Seat,
    Tournament,
    TournamentEntry,
    TournamentFormat,
    TournamentStatus,
    TournamentTable,
)
from games.pairing import arena_tables, duplicate_seats, swiss_tables
from games.tournament_fold import Folded, Table
from notifications import delivery
from notifications.models import Kind, Notification
from players import safety
from players.locks import lock_notified
from players.services import bot_accounts_among
from service import bots, lobby, ratings
from service.facts import WriteFacts
from service.tournament_records import (
    append,
    ends_at,
    folded_log,
    standing_json,
    standings_of,
    table_spec,
)
from service.unit_of_work import game_write
from unoservice.celery import app

log_ = logging.getLogger(__name__)

ADVANCE_TASK = "tournaments.advance"
SWEEP_TASK = "tournaments.sweep"
FILLER = "basic"  # the level of the bots that fill short tables
_draining = threading.local()


# --- scheduling ----------------------------------------------------------------------------------


def after_commit(tournament_id: str, at: datetime | None = None) -> None:
    """Queue ``advance`` for after the current transaction commits (at ``at``, or at once)."""
    transaction.on_commit(partial(schedule_advance, tournament_id, at))


def schedule_advance(tournament_id: str, at: datetime | None = None) -> None:
    """``advance`` as a Celery task (an ETA within ``UNO_SCHEDULE_HORIZON``, else the sweep's);
    without a broker, at once in this process when due (steps that follow queue behind it rather
    than nest), and a later time is left to reads and the sweep."""
    now = timezone.now()
    if at is not None and at - now > timedelta(seconds=settings.UNO_SCHEDULE_HORIZON):
        return
    if not app.conf.task_always_eager:
        try:
            eta = at if at is not None and at > now else None
            app.send_task(ADVANCE_TASK, args=[tournament_id], eta=eta, retry=False)
        except Exception:  # the broker is down: the sweep covers it
            log_.warning("could not queue tournament %s", tournament_id, exc_info=True)
        return
    if at is not None and at > now:
        return
    queue: list[str] | None = getattr(_draining, "queue", None)
    if queue is not None:
        if tournament_id not in queue:
            queue.append(tournament_id)
        return
    _draining.queue = queue = [tournament_id]
    try:
        while queue:
            try:
                advance(queue.pop(0))
            except Exception:  # the request that led here must not fail for it
                log_.exception("tournament %s could not advance", tournament_id)
    finally:
        _draining.queue = None


def advance_tournaments(facts: WriteFacts) -> None:
    """A subscriber: a tournament's table finished, so its next step may be due."""
    if not facts.finished:
        return
    tournament_id = (
        TournamentTable.objects.filter(game_id=facts.game.pk)
        .values_list("tournament_id", flat=True)
        .first()
    )
    if tournament_id is not None:
        schedule_advance(str(tournament_id))


def heads_up_at(tournament: Tournament) -> datetime:
    """When the players entered are told that the tournament starts soon."""
    return tournament.starts_at - timedelta(seconds=settings.UNO_TOURNAMENT_HEADS_UP)


def is_due(tournament: Tournament, now: datetime | None = None) -> bool:
    """A step is due by the clock alone: the start, or an arena's end."""
    now = now or timezone.now()
    if tournament.status == TournamentStatus.UPCOMING:
        return tournament.starts_at <= now
    end = ends_at(tournament)
    return tournament.status == TournamentStatus.RUNNING and end is not None and end <= now


def caught_up(tournament: Tournament) -> Tournament:
    """Before a read: a tournament whose start (or arena end) passed takes its due steps."""
    if is_due(tournament):
        advance(str(tournament.pk))
        tournament.refresh_from_db()
    return tournament


def sweep(now: datetime | None = None) -> int:
    """Advance every tournament with a step due (a lost task, a worker that was down): due to
    start, or to tell its players that it starts soon, a finished table whose result is not in,
    or a running arena (its seating and its end); return how many changed."""
    now = now or timezone.now()
    due = Q(status=TournamentStatus.UPCOMING, starts_at__lte=now)
    told = TournamentEntry.objects.filter(tournament=OuterRef("pk"), type=log.START_NEAR)
    near = Q(
        status=TournamentStatus.UPCOMING,
        starts_at__lte=now + timedelta(seconds=settings.UNO_TOURNAMENT_HEADS_UP),
    ) & ~Exists(told)
    unrecorded = Q(
        status=TournamentStatus.RUNNING,
        tables__recorded=False,
        tables__game__status=GameStatus.FINISHED,
    )
    arena = Q(status=TournamentStatus.RUNNING, format=TournamentFormat.ARENA)
    found = Tournament.objects.filter(due | near | unrecorded | arena).values_list("pk", flat=True)
    ids = [str(pk) for pk in dict.fromkeys(found)]
    return sum(1 for tournament_id in ids if advance(tournament_id, now))


# --- the steps -----------------------------------------------------------------------------------


class Step:
    """One ``advance``: the locked tournament, its fold, the time, and what to do after it."""

    def __init__(self, tournament: Tournament, folded: Folded, now: datetime) -> None:
        self.tournament = tournament
        self.folded = folded
        self.now = now
        self.changed = False
        self.wake_at: datetime | None = None  # an arena's end: advance again then
        self._notified_locked = False

    def lock_notified(self) -> None:
        """Before the step's first notification: the notification locks of everyone it may
        notify (its players, and the bots that may fill its tables), in one go, in the order of
        their ids (``players.locks``). Taken table by table, a round would hold one table's
        players while it waits for a player of the next, whom a game's write elsewhere may hold
        while it waits for one of the first table's: a deadlock."""
        if self._notified_locked:
            return
        size = self.tournament.table_size
        fillers = User.objects.filter(bot__level=FILLER).order_by("pk").values_list("pk", flat=True)
        lock_notified([*self.folded.players, *fillers[: 2 * size]])
        self._notified_locked = True

    def append(self, kind: str, data: Any) -> None:
        append(self.tournament, self.folded, kind, data, self.now)
        self.changed = True

    def notify(
        self, players: list[int], kind: str, data: dict[str, Any], game: Game | None
    ) -> None:
        if not players:
            return
        self.lock_notified()
        Notification.objects.bulk_create(
            Notification(
                player_id=player,
                kind=kind,
                game=game,
                version=0 if game is None else game.version,
                at=self.now,
                data=data,
            )
            for player in players
        )
        transaction.on_commit(delivery.queue_drain)


def advance(tournament_id: str, now: datetime | None = None) -> bool:
    """Take every step of the tournament that is due at ``now`` (by default the time now);
    whether any was taken. Safe to run twice, or in two workers at once."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None or tournament.status == TournamentStatus.FINISHED:
            return False
        step = Step(tournament, folded_log(tournament), now)
        if tournament.status == TournamentStatus.UPCOMING:
            if now < tournament.starts_at:
                if now >= heads_up_at(tournament) and not step.folded.start_near:
                    _start_near(step)
                return step.changed
            _start(step)
        if tournament.status == TournamentStatus.RUNNING:
            _record_results(step)
            FORMATS[tournament.format](step)
        if step.wake_at is not None:
            after_commit(tournament_id, step.wake_at)
    return step.changed


def _starting(tournament: Tournament) -> dict[str, Any]:
    """What ``tournament_starting`` says: the tournament, its name and its start."""
    return {
        "tournament": str(tournament.pk),
        "name": tournament.name,
        "starts_at": tournament.starts_at.isoformat(),
    }


def _start_near(step: Step) -> None:
    """The players entered now are told that the start is near (once: the entry says so, even
    when nobody had entered yet)."""
    folded = step.folded
    players = folded.active
    step.append(log.START_NEAR, {"players": players})
    step.notify(players, Kind.TOURNAMENT_STARTING, _starting(step.tournament), None)


def _start(step: Step) -> None:
    tournament, folded = step.tournament, step.folded
    players = folded.active
    if len(players) < 2:
        _finish(step, reason="not_enough_players")
        return
    tournament.status = TournamentStatus.RUNNING
    step.append(log.STARTED, {"players": players})
    untold = [player for player in players if player not in folded.told]
    step.notify(untold, Kind.TOURNAMENT_STARTING, _starting(tournament), None)


def _finish(step: Step, reason: str = "complete") -> None:
    tournament = step.tournament
    table = standings_of(tournament, step.folded)
    names = dict(
        User.objects.filter(pk__in=[row.player for row in table]).values_list("pk", "username")
    )
    programs = bot_accounts_among(list(names))
    tournament.status = TournamentStatus.FINISHED
    step.append(
        log.FINISHED,
        {"reason": reason, "standings": [standing_json(row, names, programs) for row in table]},
    )
    for place, row in enumerate(table, start=1):
        if row.player in step.folded.withdrawn:
            # They left it (an account's deletion withdraws it too): no news of its end, as
            # they hear of no table after leaving; their place stays in the standings.
            continue
        data = {
            "tournament": str(tournament.pk),
            "name": tournament.name,
            "place": place,
            "points": row.points,
            # Why it ended: "not_enough_players" tells an entrant it never took place, where
            # their place alone (first of one) said they had won it.
            "reason": reason,
        }
        step.notify([row.player], Kind.TOURNAMENT_FINISHED, data, None)


def _record_results(step: Step) -> None:
    """Every table of the tournament whose game ended and whose result is not in the log yet."""
    open_tables = (
        TournamentTable.objects.filter(tournament=step.tournament, recorded=False)
        .select_related("game")
        .order_by("game__updated_at", "pk")
    )
    for row in open_tables:
        game = row.game
        if game.status != GameStatus.FINISHED:
            continue
        state = eventstore.load_state(game)
        standing = dict(ratings.game_standing(game, state))
        seats = step.folded.by_game[str(game.pk)].seats
        winner = game.winner_seat
        step.append(
            log.TABLE_FINISHED,
            {
                "round": row.round,
                "table": row.number,
                "deal": row.deal,
                "game": str(game.pk),
                "places": [
                    {"player": player, "seat": seat, "place": standing[seat]}
                    for seat, player in enumerate(seats)
                ],
                "winner": None if winner is None else seats[winner],
            },
        )
        row.recorded = True
        row.save(update_fields=["recorded"])


# --- seating a table -----------------------------------------------------------------------------


def _open_table(
    step: Step,
    seats: Sequence[int | None],
    *,
    round_: int,
    table: int,
    deal: int = 0,
    seed: tuple[int, str] | None = None,
    sealed: bool = False,
) -> dict[str, Any]:
    """Create and start a table's game: ``seats`` the players by seat (None: a ``basic`` bot
    fills it, or the bot user's id again for a duplicate's next deal); its entry's data."""
    step.lock_notified()  # before the game's start notifies its seats
    tournament = step.tournament
    people = [p for p in seats if p is not None]
    users = {user.pk: user for user in User.objects.filter(pk__in=people).select_related("bot")}
    game, _ = lobby.game_build(
        player=tournament.host, spec=_spec_of(tournament)
    )  # checked when the tournament was made; built again: a new seed
    taken = set(people)
    seated: list[User] = []
    filled: list[int] = []
    for number, player in enumerate(seats):
        user = users.get(player) if player is not None else None
        if user is None or hasattr(user, "bot"):
            user = user or bots.bot_user(FILLER, taken)
            taken.add(user.pk)
            filled.append(number)
        seated.append(user)
    ids = [user.pk for user in seated]
    game.match_key = None
    game.invite_code = None
    game.private = sealed
    game.sealed = sealed
    if seed is not None:
        game.seed, game.salt = seed
    game.save()
    Seat.objects.bulk_create(
        Seat(game=game, number=number, player_id=player) for number, player in enumerate(ids)
    )
    game.roster = _roster(seated, filled)
    game.save(update_fields=["roster"])
    with game_write(game.pk) as write:
        lobby.start(write)
    TournamentTable.objects.create(
        tournament=tournament, game=game, round=round_, number=table, deal=deal, seats=ids
    )
    humans = [p for n, p in enumerate(ids) if n not in filled]
    data = {"tournament": str(tournament.pk), "game": str(game.pk), "round": round_}
    step.notify(humans, Kind.TOURNAMENT_TABLE, data, write.game)
    return {
        "round": round_,
        "table": table,
        "deal": deal,
        "game": str(game.pk),
        "seats": ids,
        "bots": filled,
    }


def _roster(seated: list[User], filled: list[int]) -> list[dict[str, Any]]:
    """A table's roster as every game's: the bots' seats by ``bots.roster_entry``, the players'
    by ``lobby.roster_entry`` (a bot account's marked). Read after the seats' rows are written,
    as the lobby reads a joining player's: a bot account's mark racing the table committed
    before them (and is read here), or finds them and is refused."""
    programs = bot_accounts_among([user.pk for user in seated])
    return [
        bots.roster_entry(user, FILLER)
        if number in filled
        else lobby.roster_entry(user, bot_account=user.pk in programs)
        for number, user in enumerate(seated)
    ]


def _spec_of(tournament: Tournament) -> lobby.NewGame:
    return table_spec(dict(tournament.settings), tournament.table_size)


def _filled(people: list[int], size: int) -> list[int | None]:
    return [*people, *([None] * (size - len(people)))]


def _order(step: Step) -> list[int]:
    """The players still in (not withdrawn), in standing order."""
    active = set(step.folded.active)
    return [
        row.player for row in standings_of(step.tournament, step.folded) if row.player in active
    ]


def _round_done(folded: Folded) -> bool:
    current = [t for t in folded.tables if t.round == folded.round]
    return all(t.result is not None for t in current)


# --- swiss ---------------------------------------------------------------------------------------


def _swiss(step: Step) -> None:
    tournament, folded = step.tournament, step.folded
    if not _round_done(folded):
        return
    order = _order(step)
    if folded.round >= (tournament.rounds or 0) or not order:
        _finish(step)
        return
    number = folded.round + 1
    seating = swiss_tables(order, tournament.table_size, folded.met(), safety.apart_among(order))
    tables = [
        _open_table(step, _filled(people, tournament.table_size), round_=number, table=index)
        for index, people in enumerate(seating, start=1)
    ]
    step.append(log.ROUND_PAIRED, {"round": number, "order": order, "tables": tables})


# --- duplicate -----------------------------------------------------------------------------------


def _duplicate(step: Step) -> None:
    tournament, folded = step.tournament, step.folded
    size = tournament.table_size
    current = [t for t in folded.tables if t.round == folded.round]
    complete = folded.round > 0 and len(current) == size * len({t.table for t in current})
    if folded.round == 0 or (complete and _round_done(folded)):
        if folded.round and folded.round not in folded.revealed_rounds:
            _reveal(step, current)
        order = _order(step)
        if folded.round >= (tournament.rounds or 0) or not order:
            _finish(step)
            return
        _pair_duplicate(step, order)
        return
    _next_deals(step, current)


def _pair_duplicate(step: Step, order: list[int]) -> None:
    tournament, folded = step.tournament, step.folded
    size = tournament.table_size
    number = folded.round + 1
    deal = (secrets.randbits(63), new_salt())  # the first deal, the same at every table
    seating = swiss_tables(order, size, folded.met(), safety.apart_among(order))
    tables = []
    for index, people in enumerate(seating, start=1):
        seats = duplicate_seats(_filled(people, size), 0, index - 1)
        tables.append(
            _open_table(step, seats, round_=number, table=index, deal=0, seed=deal, sealed=True)
        )
    step.append(log.ROUND_PAIRED, {"round": number, "order": order, "tables": tables})


def _next_deals(step: Step, current: list[Table]) -> None:
    """Each table whose latest deal finished plays the next one: the seats of its first deal
    rotated by the deal's number, from the seed and salt every table plays that deal with."""
    size = step.tournament.table_size
    entrants, active = set(step.folded.players), set(step.folded.active)
    by_table: dict[int, list[Table]] = {}
    for table in current:
        by_table.setdefault(table.table, []).append(table)
    for number, deals in sorted(by_table.items()):
        latest = max(deals, key=lambda t: t.deal)
        if latest.result is None or latest.deal + 1 >= size:
            continue
        first = min(deals, key=lambda t: t.deal)
        deal = latest.deal + 1
        rotated = [first.seats[(seat + deal) % size] for seat in range(size)]
        # A player who withdrew takes no new table: a bot holds their hand from now on.
        seats: list[int | None] = [p if p in active or p not in entrants else None for p in rotated]
        data = _open_table(
            step,
            seats,
            round_=first.round,
            table=number,
            deal=deal,
            seed=_deal_seed(step.tournament, first.round, deal),
            sealed=True,
        )
        step.append(log.TABLE_SEATED, data)


def _deal_seed(tournament: Tournament, round_: int, deal: int) -> tuple[int, str]:
    """The seed and salt of a round's deal: those of a table that dealt it already, else new."""
    dealt = (
        TournamentTable.objects.filter(tournament=tournament, round=round_, deal=deal)
        .values_list("game__seed", "game__salt")
        .first()
    )
    return dealt if dealt is not None else (secrets.randbits(63), new_salt())


def _reveal(step: Step, tables: list[Table]) -> None:
    """The round is over: its games' cards, seeds and salts are shown (verifiable)."""
    games = [t.game for t in tables]
    Game.objects.filter(pk__in=games).update(sealed=False, private=False)
    step.append(log.ROUND_FINISHED, {"round": step.folded.round, "revealed": games})


# --- arena ---------------------------------------------------------------------------------------


def _arena(step: Step) -> None:
    tournament, folded = step.tournament, step.folded
    end = ends_at(tournament)
    assert end is not None
    playing = folded.playing()
    if step.now >= end:
        if not playing:
            _finish(step)
        return
    step.wake_at = end
    order = _order(step)
    rank = {player: index for index, player in enumerate(order)}
    waiting = sorted(
        (p for p in folded.active if p not in playing),
        key=lambda p: (_last_seen(folded, p), rank[p]),
    )
    seating = arena_tables(
        waiting,
        rank,
        tournament.table_size,
        short=not playing,
        apart=safety.apart_among(waiting),
    )
    count = len(folded.tables)
    for index, people in enumerate(seating, start=count + 1):
        data = _open_table(step, _filled(people, tournament.table_size), round_=1, table=index)
        step.append(log.TABLE_SEATED, {**data, "order": order})


def _last_seen(folded: Folded, player: int) -> int:
    """When the player last finished a table (the index of its result; -1: never): the one who
    has waited longest sits first."""
    seen = -1
    for index, result in enumerate(folded.results):
        if player in result.seats:
            seen = index
    return seen


FORMATS: dict[str, Callable[[Step], None]] = {
    TournamentFormat.SWISS: _swiss,
    TournamentFormat.DUPLICATE: _duplicate,
    TournamentFormat.ARENA: _arena,
}
