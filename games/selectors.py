"""Reads: the game list, one game as the caller may see it, the redacted event log, replays.

Every card a response shows passes through the engine's ``view`` or ``event_view``: the one place
that decides what a seat may see.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, Protocol

from django.contrib.auth.models import User
from django.utils import timezone

from games import checkpoints, engine, timekeeping
from games.engine import shapes
from games.engine.snapshot import state_from_data
from games.eventstore import read_game, select_events
from games.fairness import commitment
from games.listing import listing, seat_statuses
from games.models import Game, GameStatus, sees_its_seat
from unoservice import prepared, replica
from unoservice.errors import DomainError

Player = User


_DEFAULT_RULES = engine.Options().rules()


def settings_of(game: Game) -> dict[str, Any]:
    # Games created before an option existed show it at its default (off).
    rules = {**_DEFAULT_RULES, **game.house_rules()}
    teams = game.team_count()
    shown: dict[str, Any] = {
        "max_players": game.max_players,
        "target_score": game.target_score,
        "turn_timeout": game.turn_timeout,
        "max_timeouts": game.max_timeouts,
        "clock": dict(game.clock) if game.clock else {"type": "move"},
        "rules": rules,
        # Shown when set: the settings of games without it stay as they were.
        **({"bot_takeover": True} if game.bot_takeover else {}),
        **({"private": True} if game.private else {}),
        **({"spectator_chat": True} if game.spectator_chat else {}),
        **({"bots_welcome": True} if game.bots_welcome else {}),
    }
    if teams:
        shown["teams"] = teams
    return shown


def player_ref(entry: dict[str, Any]) -> dict[str, Any]:
    """A roster entry as the views show its player: the bot marker belongs to the seat."""
    return {"id": entry["id"], "username": entry["username"]}


# The roster's markers a seat shows: a built-in bot's level, and a bot account (its program).
SEAT_MARKERS = ("bot", "bot_account")


def seat_markers(entry: dict[str, Any]) -> dict[str, Any]:
    """The markers of a roster entry that its seat shows (``SEAT_MARKERS``)."""
    return {marker: entry[marker] for marker in SEAT_MARKERS if marker in entry}


def _mark_bots(seats: list[dict[str, Any]], roster: list[dict[str, Any]]) -> None:
    for seat in seats:
        number = seat["seat"]
        if number < len(roster):
            seat.update(seat_markers(roster[number]))


def seat_of(game: Game, player: Player) -> int | None:
    """The caller's seat in ``game``, or None for a spectator."""
    return next((i for i, entry in enumerate(game.roster) if entry["id"] == player.pk), None)


def view_seat(game: Game, player: Player) -> int | None:
    """The seat ``player`` sees ``game`` from (``sees_its_seat``), or None: as a spectator."""
    seat = seat_of(game, player)
    return seat if seat is not None and sees_its_seat(game.roster[seat]) else None


def may_see(game: Game, viewer: Player) -> bool:
    """The one rule of who may see a game at all (its view, log, replay, stream, and any write
    by a player): a private game only its seated players and staff; anyone else is told there is
    no such game (404), the same answer as for a game that does not exist."""
    return not game.private or viewer.is_staff or seat_of(game, viewer) is not None


def require_visible(game: Game, viewer: Player) -> Game:
    if not may_see(game, viewer):
        raise DomainError("not_found", "No such game.")
    return game


def _tables_view(game: Game, seat: int | None) -> dict[str, Any]:
    """The view's tables fields: a private game's code for its seated players, the rematch,
    and when bots fill a quick match's waiting game."""
    shown: dict[str, Any] = {}
    if game.invite_code and seat is not None:
        shown["invite_code"] = game.invite_code
    if game.rematch_id is not None:
        shown["rematch"] = str(game.rematch_id)
    if game.status == GameStatus.WAITING and game.fill_bots_at is not None:
        shown["bots_fill_at"] = game.fill_bots_at.isoformat()
    return shown


def _waiting_view(game: Game, seat: int | None) -> dict[str, Any]:
    """The view's parts (engine.shapes) before the first deal: no cards, no round."""
    seats: list[dict[str, Any]] = [
        dict(shapes.seat_view(number, player_ref(entry)))  # type: ignore[arg-type]
        for number, entry in enumerate(game.roster)
    ]
    _mark_bots(seats, game.roster)
    body: dict[str, Any] = {
        "seats": seats,
        "round": None,
        "you": None if seat is None else shapes.you_view(seat, [], []),
        "last_round": None,
        "winner_seat": None,
    }
    teams = game.team_count()
    if teams:
        for entry in seats:
            entry["team"] = entry["seat"] % teams
        body["winner_team"] = None
    return body


def view_of_state(
    game: Game,
    state: engine.GameState,
    seat: int | None,
    revealed: bool | None = None,
    roster: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    shown = engine.view(state, seat, revealed)
    roster = game.roster if roster is None else roster
    for entry in shown["seats"]:
        entry["player"] = player_ref(roster[entry["seat"]]) if entry["seat"] < len(roster) else None
    _mark_bots(shown["seats"], roster)
    shown.pop("status", None)
    return shown


def fairness_of(game: Game) -> dict[str, Any]:
    """The deck commitment, shown from the game's creation on, and what it commits to, shown once
    the game is finished (docs/fairness.md). Nothing else derived from the salt is ever shown
    before: a view, an event, a stream frame or a notification holding it would tell the deck."""
    shown: dict[str, Any] = {
        "deck_commitment": commitment(game.seed, game.salt) if game.salt else None
    }
    if game.revealed:  # a sealed tournament table waits for the end of its round
        shown["seed"] = game.seed
        shown["salt"] = game.salt or None
    return shown


def game_view(game: Game, player: Player, state: engine.GameState | None = None) -> dict[str, Any]:
    """The game view of the contract, as ``player`` may see it.

    ``state`` is the engine state of ``game.state`` when the caller already holds it.
    """
    seat = view_seat(game, player)
    if game.state is None:
        body = _waiting_view(game, seat)
    else:
        if state is None:
            state = state_from_data(game.state)
        body = view_of_state(game, state, seat, revealed=game.revealed)
        if body["round"] is not None:
            deadline = game.turn_deadline
            shown = deadline.isoformat() if deadline else None
            body["round"]["turn_deadline"] = shown
            if game.clock:
                body["round"]["bank_runs_out_at"] = shown
    if timekeeping.pauses(game) and game.status in (GameStatus.WAITING, GameStatus.ACTIVE):
        for number, until in timekeeping.on_vacation(game, timezone.now()).items():
            if number < len(body["seats"]):
                body["seats"][number]["on_vacation_until"] = until.isoformat()
    return {
        "id": str(game.id),
        "status": game.status,
        "version": game.version,
        "settings": settings_of(game),
        **fairness_of(game),
        "created_by": game.created_by_id,
        "created_at": game.created_at.isoformat(),
        **body,
        **_tables_view(game, seat),
    }


def get_game(game_id: str | uuid.UUID, viewer: Player) -> Game:
    """The game ``viewer`` asks for, if they may see it (``may_see``), else ``not_found``. Read
    from the primary (``eventstore.read_game``): a view must show the caller's own write."""
    return require_visible(read_game(game_id), viewer)


@replica.lagging  # a list may be a moment behind; each game's own view is not
def game_list(
    player: Player, *, status: str | None = None, mine: bool = False, my_turn: bool = False
) -> prepared.Listing[Game]:
    """The games ``player`` may list (``may_see``, as a filter), narrowed as asked: read
    prepared, a page at a time (``games.listing``)."""
    return listing(
        replica.read_alias(),
        player_id=player.pk,
        staff=player.is_staff,
        status=status,
        mine=mine,
        my_turn=my_turn,
    )


def game_summaries(games: list[Game]) -> list[dict[str, Any]]:
    """A page of games as lists show them, their seats' statuses read in one query.

    Plain rows rather than prefetched ``Seat`` instances: a prefetched seat and its game refer
    to each other, so every listed game became garbage that only the cyclic collector frees,
    and the collections of a web process grew with the pages it listed (docs/performance.md)."""
    if not games:
        return []
    statuses = seat_statuses(games[0]._state.db or "default", [game.pk for game in games])
    return [game_summary(game, statuses[game.pk]) for game in games]


def game_summary(game: Game, statuses: dict[int, str]) -> dict[str, Any]:
    """A game as lists show it; ``statuses``: its seats' statuses by number."""
    return {
        "id": str(game.id),
        "status": game.status,
        "version": game.version,
        "settings": settings_of(game),
        "seats": [
            {
                "seat": number,
                "player": player_ref(entry),
                "status": statuses.get(number, "playing"),
                **seat_markers(entry),
            }
            for number, entry in enumerate(game.roster)
        ],
        "current_seat": game.current_seat,
        "turn_deadline": game.turn_deadline.isoformat() if game.turn_deadline else None,
        "winner_seat": game.winner_seat,
        "winner_team": game.winner_team,
        "created_at": game.created_at.isoformat(),
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
    }


class StoredEvent(Protocol):
    """What rendering needs of a stored event: an ``Event`` row, or a row the streams read in
    bulk (``streams.hub``)."""

    @property
    def seq(self) -> int: ...
    @property
    def type(self) -> str: ...
    @property
    def seat(self) -> int | None: ...
    @property
    def data(self) -> Any: ...
    @property
    def created_at(self) -> datetime: ...
    @property
    def hash(self) -> str: ...


def _event_body(row: StoredEvent, seat: int | None, revealed: bool) -> dict[str, Any]:
    shown = engine.event_view(
        {"type": row.type, "seat": row.seat, "data": row.data}, seat, revealed
    )
    body = {
        "seq": row.seq,
        "type": row.type,
        "seat": row.seat,
        "at": row.created_at.isoformat(),
        "data": shown["data"],
    }
    if revealed:
        # Only once every card is shown: with the previous hash known, the hash of an event that
        # hides a drawn card would tell that card to whoever tries the 54 codes (docs/fairness.md).
        body["hash"] = row.hash
    return body


def event_body(row: StoredEvent, seat: int | None, revealed: bool) -> dict[str, Any]:
    """One stored event as ``seat`` may see it: the rendering of the event log and the streams."""
    return _event_body(row, seat, revealed)


def settled_on_replica(game: Game) -> bool:
    """Is ``game`` finished, and does the replica already hold it at its last event? Then its log
    never changes again and the replica may serve it; a game that just ended (the replica is
    behind) or one still played reads the primary."""
    if game.status != GameStatus.FINISHED or not replica.enabled():
        return False
    on_replica = Game.objects.using(replica.REPLICA).filter(
        pk=game.pk, status=GameStatus.FINISHED, version=game.version
    )
    return on_replica.exists()


def game_export(game: Game) -> dict[str, Any]:
    """A finished game as one document (``shapes.GameExport``): every event as stored, with its
    hash, and the seed and salt the deck commitment commits to (``games.fairness`` checks it)."""
    if not game.revealed or game.state is None:
        raise DomainError(
            "game_not_finished",
            f"The game is {game.status}: its export (and its seed and salt) waits for its end"
            + (" and the end of its tournament round." if game.sealed else "."),
        )
    state = state_from_data(game.state)
    seats = []
    for entry in view_of_state(game, state, None)["seats"]:
        seat = {
            "seat": entry["seat"],
            "player": entry["player"],
            "score": entry["score"],
            "status": entry["status"],
        }
        for extra in ("team", *SEAT_MARKERS):
            if extra in entry:
                seat[extra] = entry[extra]
        seats.append(seat)
    with replica.lagging_reads(when=settled_on_replica(game)):
        rows = list(select_events(game.pk))
    return {
        "id": str(game.id),
        "settings": settings_of(game),
        "seats": seats,
        "events": [
            {
                "seq": row.seq,
                "type": row.type,
                "seat": row.seat,
                "at": row.created_at.isoformat(),
                "data": row.data,
                "hash": row.hash,
            }
            for row in rows
        ],
        **fairness_of(game),
        "winner_seat": game.winner_seat,
    }


def game_events(game: Game, player: Player, *, after: int, limit: int) -> list[dict[str, Any]]:
    """The log after seq ``after``, at most ``limit`` events, as ``player`` may see it."""
    seat = view_seat(game, player)
    revealed = game.revealed
    with replica.lagging_reads(when=settled_on_replica(game)):
        rows = list(select_events(game.pk, after, limit))
    return [_event_body(row, seat, revealed) for row in rows]


def _roster_at(game: Game, at: int) -> list[dict[str, Any]]:
    """The roster as it stood right after event ``at``: a seat a bot took over later
    (``seat_taken_over``, with ``bot_takeover``) was still its player's."""
    if not game.bot_takeover:
        return game.roster
    with replica.lagging_reads(when=settled_on_replica(game)):
        later = set(
            select_events(game.pk, at, types=("seat_taken_over",)).values_list("seat", flat=True)
        )
    return [
        {k: v for k, v in entry.items() if k != "bot"} if number in later else entry
        for number, entry in enumerate(game.roster)
    ]


def game_replay(game: Game, player: Player, *, at: int) -> dict[str, Any]:
    """The game view as it stood right after event ``at``; a finished game shows every card."""
    if not 1 <= at <= game.version:
        raise DomainError(
            "seq_out_of_range",
            f"'at' must be from 1 to {game.version}, the game's version."
            if game.version
            else "The game has no events yet.",
        )
    with replica.lagging_reads(when=settled_on_replica(game)):
        state = checkpoints.state_at(game, at)
    revealed = game.revealed
    seat = view_seat(game, player)
    shown = revealed or (state.status == "finished" and not game.sealed)
    body = view_of_state(game, state, seat, revealed=shown, roster=_roster_at(game, at))
    return {
        "id": str(game.id),
        "status": state.status,
        "version": at,
        "settings": settings_of(game),
        **fairness_of(game),
        **body,
    }
