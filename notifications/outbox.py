"""Writing notifications: the rows of the outbox, in the transaction of what causes them.

Two paths, both from the unit of work (``service.unit_of_work``):

- a write that appends events gets its notifications in the same message as the events
  (``statements_with``: ``your_turn``, ``game_started``, ``game_finished``), so an action stays
  four round trips;
- a write's facts that append no event (a seat taken in the lobby, a turn's reminder, an
  invitation, an accepted challenge, a waiting game abandoned) get theirs from ``write_facts``,
  before the write commits.

A notification names seats and players, never a card: what a seat holds is not news to anyone
but that seat, and the player's game view says it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Any, Protocol

from django.contrib.auth.models import User
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper

from games.models import Game, GameStatus
from games.selectors import player_ref, sees_its_seat
from games.timekeeping import is_live
from notifications.models import Kind, Notification, PushSubscription, Watching, Webhook
from players.locks import lock_notified
from unoservice.prepared import Statement


@dataclass(frozen=True)
class Turn:
    """What a write changes notifications about: the game's status and who must act."""

    status: str
    actor: int | None

    @classmethod
    def of(cls, game: Game) -> Turn:
        return cls(game.status, game.current_seat)


@dataclass(frozen=True)
class Row:
    """A notification to write: what ``Notification`` stores, before it has an id."""

    player_id: int
    kind: str
    game_id: Any
    version: int
    at: datetime
    data: dict[str, Any] = field(default_factory=dict)
    # Left unwritten while the player watches the game (``Watching``): a live game's turn.
    unless_watching: bool = False

    def model(self) -> Notification:
        return Notification(
            player_id=self.player_id,
            kind=self.kind,
            game_id=self.game_id,
            version=self.version,
            at=self.at,
            data=self.data,
        )


# --- facts a write records (``GameWrite.record``) -------------------------------------------------


@dataclass(frozen=True)
class Joined:
    """A player took ``seat`` of a waiting game."""

    seat: int
    player_id: int
    username: str


@dataclass(frozen=True)
class DeadlineNear:
    """80% of the turn's time has passed: ``seat`` must act before ``deadline``."""

    seat: int
    deadline: datetime


@dataclass(frozen=True)
class Invited:
    """``by`` invites ``player_id`` to the game (a later tables issue writes these)."""

    player_id: int
    by_id: int
    by_username: str


@dataclass(frozen=True)
class ChallengeAccepted:
    """``by`` accepted the challenge ``challenge`` of ``player_id``: the write makes its game and
    starts it. Recorded before the challenged player's seat is taken, so that its notice
    (``challenge_accepted``, with what ``game_started`` says) stands for the write's
    ``player_joined`` and ``game_started`` to the challenger (``told_otherwise``): one tap of the
    other player was three notices, on a phone three pushes, of one thing."""

    player_id: int
    challenge: str
    by_id: int
    by_username: str


@dataclass(frozen=True)
class Abandoned:
    """The waiting game was abandoned by its host ``host_id`` with other players still seated:
    its account went (deleted, or a guest's removed). They waited on for a game that would
    never start, told nothing (``game_abandoned``)."""

    host_id: int


Fact = Joined | DeadlineNear | Invited | ChallengeAccepted | Abandoned


def told_otherwise(facts: Iterable[Fact]) -> frozenset[int]:
    """The players whom a fact's own notice tells of the write's seats and start (an accepted
    challenge's challenger): no ``player_joined`` or ``game_started`` of the write is theirs.
    A turn is still told (``your_turn``): it has a deadline, and bots and webhooks wait for it."""
    return frozenset(f.player_id for f in facts if isinstance(f, ChallengeAccepted))


class Recorder(Protocol):
    """What records a write's facts: ``service.unit_of_work.GameWrite``."""

    def record(self, fact: Fact) -> None: ...


def invite(write: Recorder, *, player: User, by: User) -> None:
    """Invite ``player`` to the game of ``write`` (``with game_write(id) as write``): the
    ``invited`` notification is written with the write, and only if it commits."""
    write.record(Invited(player.pk, by.pk, by.get_username()))


def _player(game: Game, seat: int) -> int:
    return int(game.roster[seat]["id"])


def _person_plays(game: Game, seat: int) -> bool:
    """Whether the seat's own player makes its moves: not a bot's seat, nor a seat a bot took
    over for a player who left (``bot_takeover``), who is told no turn of a game they left."""
    return sees_its_seat(game.roster[seat])


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def others_of(game: Game, seat: int) -> list[dict[str, Any]]:
    """The players of the game's other seats (``{"id", "username"}``, bots' included), so that a
    notification to ``seat`` can say whom the game is with without reading the game."""
    return [player_ref(entry) for s, entry in enumerate(game.roster) if s != seat]


def turn_data(game: Game, seat: int, deadline: datetime | None) -> dict[str, Any]:
    """What ``your_turn`` and ``deadline_soon`` say: the seat, the game's version, the turn's
    deadline and the other players."""
    return {
        "seat": seat,
        "version": game.version,
        "deadline": _iso(deadline),
        "others": others_of(game, seat),
    }


def finished_data(game: Game) -> list[dict[str, Any]]:
    """What each seat hears of a finished game: who won, by name (``winner``; with teams
    ``winner_team``, and ``winner`` null), and whether they did (``won``: their team, with
    teams)."""
    seat, team, teams = game.winner_seat, game.winner_team, game.team_count()
    winner = None if seat is None or teams else player_ref(game.roster[seat])
    return [
        {
            "seat": s,
            "winner_seat": seat,
            "winner_team": team,
            "winner": winner,
            "won": (s % teams == team) if teams and team is not None else s == seat,
        }
        for s in range(len(game.roster))
    ]


def started_data(game: Game, seat: int) -> dict[str, Any]:
    """What ``game_started`` says to ``seat`` (and an accepted challenge's notice, in its place)."""
    return {"seat": seat, "players": len(game.roster), "others": others_of(game, seat)}


def caused_by(
    game: Game, before: Turn, at: datetime, told: frozenset[int] = frozenset()
) -> list[Row]:
    """The notifications of events that took ``game`` from ``before`` to where it stands now
    (``game`` holds its new summary); ``told``: players told of the start otherwise
    (``told_otherwise``)."""
    rows: list[Row] = []
    seats = range(len(game.roster))

    if before.status == GameStatus.WAITING and game.status != GameStatus.WAITING:
        starts = ((s, started_data(game, s)) for s in seats)
        rows.extend(
            Row(_player(game, s), Kind.GAME_STARTED, game.pk, game.version, at, data)
            for s, data in starts
            if _player(game, s) not in told
        )
    if game.status == GameStatus.ACTIVE and game.current_seat is not None:
        seat = game.current_seat
        if (before.status != GameStatus.ACTIVE or before.actor != seat) and _person_plays(
            game, seat
        ):
            data = turn_data(game, seat, game.turn_deadline)
            player, live = _player(game, seat), is_live(game)
            rows.append(Row(player, Kind.YOUR_TURN, game.pk, game.version, at, data, live))
    if before.status != GameStatus.FINISHED and game.status == GameStatus.FINISHED:
        rows.extend(
            Row(_player(game, s), Kind.GAME_FINISHED, game.pk, game.version, at, data)
            for s, data in enumerate(finished_data(game))
        )
    return rows


def of_facts(
    game: Game, facts: Iterable[Fact], at: datetime, told: frozenset[int] = frozenset()
) -> list[Row]:
    rows: list[Row] = []
    for fact in facts:
        if isinstance(fact, Joined):
            data = {
                "seat": fact.seat,
                "player": {"id": fact.player_id, "username": fact.username},
                "players": len(game.roster),
                "max_players": game.max_players,
            }
            rows.extend(
                Row(_player(game, s), Kind.PLAYER_JOINED, game.pk, game.version, at, data)
                for s in range(len(game.roster))
                if s != fact.seat and _player(game, s) not in told
            )
        elif isinstance(fact, DeadlineNear):
            if not _person_plays(game, fact.seat):
                continue
            data = turn_data(game, fact.seat, fact.deadline)
            player, live = _player(game, fact.seat), is_live(game)
            rows.append(Row(player, Kind.DEADLINE_SOON, game.pk, game.version, at, data, live))
        elif isinstance(fact, ChallengeAccepted):
            by = {"id": fact.by_id, "username": fact.by_username}
            seat = next(s for s in range(len(game.roster)) if _player(game, s) == fact.player_id)
            data = {"challenge": fact.challenge, "by": by, "game": str(game.pk)}
            data.update(started_data(game, seat))
            kind = Kind.CHALLENGE_ACCEPTED
            rows.append(Row(fact.player_id, kind, game.pk, game.version, at, data))
        elif isinstance(fact, Abandoned):
            rows.extend(
                Row(_player(game, s), Kind.GAME_ABANDONED, game.pk, game.version, at, data)
                for s, data in abandoned_data(game, fact.host_id)
            )
        else:
            by = {"id": fact.by_id, "username": fact.by_username}
            rows.append(Row(fact.player_id, Kind.INVITED, game.pk, game.version, at, {"by": by}))
    return rows


def abandoned_data(game: Game, host_id: int) -> list[tuple[int, dict[str, Any]]]:
    """The seats told that their waiting game was abandoned, and what each is told: its seat
    and the others who waited with it (the host left out: its account is gone). Bots' seats
    are told nothing; a bot account's program is told, as a person is."""
    stayed = [(s, e) for s, e in enumerate(game.roster) if e.get("id") != host_id]
    return [
        (s, {"seat": s, "others": [player_ref(o) for t, o in stayed if t != s]})
        for s, entry in stayed
        if _person_plays(game, s)
    ]


def write_facts(
    game: Game, facts: Sequence[Fact], at: datetime, told: frozenset[int] = frozenset()
) -> int:
    """Write the notifications of ``facts`` (``told``: as ``of_facts``); return how many were
    written.

    A reminder already written for this turn (by the task, the sweep or the lazy path: the game
    row is locked, but a repeated task may come after the first committed) is not written again.
    """
    rows = unwatched(of_facts(game, facts, at, told))
    reminders = [r for r in rows if r.kind == Kind.DEADLINE_SOON]
    others = [r for r in rows if r.kind != Kind.DEADLINE_SOON]
    _lock_outsiders(game, rows)
    reminders = [
        r
        for r in reminders
        if not Notification.objects.filter(
            kind=Kind.DEADLINE_SOON, game_id=r.game_id, version=r.version, player_id=r.player_id
        ).exists()
    ]
    db = connections[DEFAULT_DB_ALIAS]
    with db.cursor() as cursor:
        for statement in superseded(db, [*others, *reminders]):
            cursor.execute(*statement)
    Notification.objects.bulk_create(r.model() for r in [*others, *reminders])
    return len(others) + len(reminders)


def _lock_outsiders(game: Game, rows: Sequence[Row]) -> None:
    """Rows for players outside the roster (a rematch's invitations): every notified player's
    lock first, in id order. The trigger takes the roster's and each row's player at that row,
    so the second outsider's came after the roster's, out of order: held against a write of a
    game between them, which takes theirs in order, the two waited for each other."""
    roster = {entry["id"] for entry in game.roster}
    notified = {r.player_id for r in rows}
    if notified - roster:
        lock_notified(roster | notified)


# A game's turn notices: a newer one of a game makes the player's older unread ones of it read
# (``superseded``), so the inbox counts one turn a game, its newest, not every turn since the
# player last looked (a correspondence game against bots wrote one a move). They stay listed.
TURN_NOTICES = (Kind.YOUR_TURN.value, Kind.DEADLINE_SOON.value)
# The notices that make them read: a newer turn notice, and the game's end (its turns are over).
SUPERSEDING = (*TURN_NOTICES, Kind.GAME_FINISHED.value)


def superseded(db: BaseDatabaseWrapper, rows: Sequence[Row]) -> list[Statement]:
    """The statements that mark read the turn notices ``rows`` supersede (a newer turn notice
    of the game, or its end): one per such row (most writes have one or none), each found by
    the index of the unread turn notices."""
    table = db.ops.quote_name(Notification._meta.db_table)
    kinds = ", ".join(f"'{kind}'" for kind in TURN_NOTICES)
    sql = (
        f'UPDATE {table} SET "read" = %s WHERE "player_id" = %s AND "game_id" = %s'
        f' AND NOT "read" AND "kind" IN ({kinds})'
    )
    key = Notification._meta.get_field("game")
    return [
        (sql, [True, row.player_id, key.get_db_prep_value(row.game_id, db)])
        for row in rows
        if row.kind in SUPERSEDING and row.game_id is not None
    ]


def watched(player_id: int, game_id: Any, at: datetime) -> bool:
    """``player_id`` has ``game_id`` open (a stream of it) at ``at``."""
    return Watching.objects.filter(player_id=player_id, game_id=game_id, until__gt=at).exists()


def unwatched(rows: Sequence[Row]) -> list[Row]:
    """``rows`` less those left unwritten because their player watches the game."""
    return [r for r in rows if not (r.unless_watching and watched(r.player_id, r.game_id, r.at))]


# --- the hot path's statement ---------------------------------------------------------------------

_COLUMNS = ("player_id", "kind", "game_id", "version", "at", "read", "data", "dispatched")
# The columns of the rows' JSON (``insert``): their own values, then ``quiet`` and their order.
_RECORD = (
    '"player_id" integer, "kind" text, "game_id" uuid, "version" integer,'
    ' "at" timestamptz, "data" jsonb, "quiet" boolean, "n" integer'
)


@cache
def _fields() -> dict[str, Any]:
    return {f.attname: f for f in Notification._meta.concrete_fields if f.attname in _COLUMNS}


@dataclass(frozen=True)
class Batch:
    """The statements that write a write's notifications with its events, and how to count,
    from what they return, the rows waiting for the drain."""

    statements: list[Statement]
    rows: int
    returns: bool  # the statement returns, per row, whether it waits for the drain

    def waiting(self, returned: Sequence[tuple[Any, ...]]) -> int:
        return sum(1 for (waits,) in returned if waits) if self.returns else self.rows


def insert(rows: Sequence[Row], db: BaseDatabaseWrapper | None = None) -> Batch:
    """``rows`` as one INSERT, to travel in the message of the events that caused them.

    On PostgreSQL a row whose player has no webhook and no push subscription (most players) is
    written dispatched already, and the statement returns which rows wait for the drain, so a
    write that notifies only such players queues no drain at all.
    """
    db = db or connections[DEFAULT_DB_ALIAS]
    if db.vendor != "postgresql":  # one process (SQLite): asked here, in a query of its own
        rows = unwatched(rows)
    if not rows:
        return Batch([], 0, False)
    fields = _fields()
    q = db.ops.quote_name
    table = q(Notification._meta.db_table)
    if db.vendor != "postgresql":  # SQLite: plain rows, each waiting for the drain
        params = [
            fields[c].get_db_prep_save(getattr(row, c, False), db) for row in rows for c in _COLUMNS
        ]
        values = ", ".join([f"({', '.join(['%s'] * len(_COLUMNS))})"] * len(rows))
        sql = f"INSERT INTO {table} ({', '.join(q(c) for c in _COLUMNS)}) VALUES {values}"
        return Batch([*superseded(db, rows), (sql, params)], len(rows), False)
    # The rows as one JSON array: the statement's text is the same for any number of them (one
    # prepared statement, where a VALUES list would make one per count).
    given = json.dumps(
        [
            {
                "player_id": row.player_id,
                "kind": row.kind,
                "game_id": None if row.game_id is None else str(row.game_id),
                "version": row.version,
                "at": row.at.isoformat(),
                "data": row.data,
                "quiet": row.unless_watching,
                "n": n,
            }
            for n, row in enumerate(rows)
        ],
        cls=fields["data"].encoder,
    )
    columns = ", ".join(q(c) for c in _COLUMNS)
    hooks, subscriptions = (q(m._meta.db_table) for m in (Webhook, PushSubscription))
    watching = q(Watching._meta.db_table)
    # A row of a live game's turn is left out while its player watches the game: in the same
    # statement, so the action keeps its round trips (the watch rows are the streams').
    unwatched_only = (
        'NOT (v."quiet" AND EXISTS (SELECT 1 FROM '
        f'{watching} AS x WHERE x."player_id" = v."player_id" AND x."game_id" = v."game_id"'
        ' AND x."until" > v."at"))'
    )
    listens = (
        f'EXISTS (SELECT 1 FROM {hooks} AS w WHERE w."player_id" = v."player_id"'
        ' AND w."disabled_at" IS NULL)'
        f' OR EXISTS (SELECT 1 FROM {subscriptions} AS s WHERE s."player_id" = v."player_id")'
    )
    sql = (
        f"INSERT INTO {table} ({columns})"
        ' SELECT v."player_id", v."kind", v."game_id", v."version", v."at", false, v."data",'
        f" NOT ({listens})"
        f" FROM jsonb_to_recordset(%s::jsonb) AS v ({_RECORD})"
        f' WHERE {unwatched_only} ORDER BY v."n"'
        ' RETURNING NOT "dispatched"'
    )
    # The superseded notices' statements go first: with the events, only the last returns rows.
    return Batch([*superseded(db, rows), (sql, [given])], len(rows), True)


def statements_with(
    game: Game, before: Turn, at: datetime, told: frozenset[int] = frozenset()
) -> Batch:
    """The statements that write the notifications of a write's events (``told``: as
    ``caused_by``)."""
    return insert(caused_by(game, before, at, told))
