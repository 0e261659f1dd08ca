"""The services of tables: invite codes, quick match, bots that fill a quick match, rematches.

Every write goes through the games' unit of work (``service.unit_of_work``), as the lobby's do.

- A private game (``private: true`` at creation) is seen by its seated players only
  (``selectors.may_see``) and joined by its ``invite_code`` (``game_join_by_code``).
- Quick match (``game_matchmake``) seats the caller in the oldest waiting public game whose
  settings hash (``Game.match_key``) is the asked one, or creates it; the decisions for one set
  of settings are serialized by an advisory lock (``matching.lock_settings``), so two
  half-filled games of the same settings never exist (but where the only one seats a player
  the caller keeps apart from: a block, either way; then quick match opens another), and the
  game row's lock (taken by the seat's write) keeps a game from being overfilled.
- ``fill_with_bots_after``: the game's ``fill_bots_at`` is set, the write declares the task
  (``subscribers.fill_with_bots``), and the task, the beat sweep or a read after that time
  (``clock.caught_up``) seats ``basic`` bots in the free seats and starts the game.
- A rematch is a private game without a code, linked from the finished game (``rematch``):
  its players take their seats by the same call, and at the start the seats are arranged in
  the finished game's order shifted by one, so the next dealer deals. A player kept apart from
  one seated in it (a block) is neither invited by its creator nor waited for.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count, F
from django.utils import timezone

from games import matching
from games.models import Game, GameStatus
from games.selectors import seat_of
from notifications.outbox import Invited
from players import safety
from players.models import Bot, DeletedAccount
from service import lobby
from service.unit_of_work import GameWrite, game_write
from unoservice.errors import DomainError

Player = User

FILL_LEVEL = "basic"
# Quick match retries a pick that a direct join filled between the pick and its lock.
_MATCH_ATTEMPTS = 3


# --- invite codes ------------------------------------------------------------------------------


def game_join_by_code(*, player: Player, code: str) -> Game:
    """Take the next free seat of the game whose invite code is ``code``. A caller who already
    sits in it gets it back (the link clicked twice)."""
    game_id = (
        Game.objects.filter(invite_code=matching.normalized_code(code))
        .values_list("pk", flat=True)
        .first()
    )
    if game_id is None:
        raise DomainError("invite_code_unknown", "No game has this invite code.")
    with game_write(game_id) as write:
        if seat_of(write.game, player) is None:
            lobby.take_seat(write, player)
    return write.game


# --- quick match -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Match:
    """What a quick match asks for: a game's settings, and when bots may fill it."""

    players: int
    rules: dict[str, Any] | None = None
    preset: str = "official"
    target_score: int = lobby.NewGame.target_score
    turn_timeout: int = lobby.NewGame.turn_timeout
    fill_with_bots_after: int | None = None
    bots_welcome: bool = False  # match among games open to bot accounts (players' programs)


def game_matchmake(*, player: Player, match: Match) -> Game:
    """Seat ``player`` in the oldest waiting public game of the asked settings with a free seat,
    or in a new one; a caller already seated in such a game gets it back.

    ``bots_welcome`` is one of the settings (``Game.bots_welcome``, in the match key): people who
    leave it off are matched among games bot accounts cannot join; a bot account must send it
    (``bots_not_welcome``), and so meets only those who welcome bots."""
    spec = lobby.NewGame(
        max_players=match.players,
        rules=match.rules,
        preset=match.preset,
        target_score=match.target_score,
        turn_timeout=match.turn_timeout,
        bots_welcome=match.bots_welcome,
    )
    candidate, _ = lobby.game_build(player=player, spec=spec)
    lobby.require_welcome(candidate, player)  # before any lock: refused, nothing is made
    key = candidate.match_key
    assert key is not None  # a public game without a given deck or seed always has one
    fill_at = None
    if match.fill_with_bots_after is not None:
        fill_at = timezone.now() + timedelta(seconds=match.fill_with_bots_after)
    with transaction.atomic():
        matching.lock_settings(key)
        for _ in range(_MATCH_ATTEMPTS):
            game_id = _seated_in(key, player) or _oldest_open(key, safety.kept_apart(player.pk))
            if game_id is None:
                game_id = lobby.game_save(candidate).pk
            try:
                with game_write(game_id) as write:
                    if seat_of(write.game, player) is None:
                        lobby.take_seat(write, player)
                    if fill_at is not None and write.game.status == GameStatus.WAITING:
                        _fill_from(write, fill_at)
                return write.game
            except DomainError as refused:
                # A direct join (by id) filled the game between the pick and the lock.
                if refused.code not in ("game_full", "game_not_waiting"):
                    raise
        raise DomainError("game_full", "Every game of these settings filled up; try again.")


def _waiting(key: str) -> Any:
    return Game.objects.filter(match_key=key, status=GameStatus.WAITING, private=False)


def _seated_in(key: str, player: Player) -> uuid.UUID | None:
    game_id: uuid.UUID | None = (
        _waiting(key)
        .filter(seats__player=player)
        .order_by("created_at")
        .values_list("pk", flat=True)
        .first()
    )
    return game_id


def _oldest_open(key: str, apart: set[int]) -> uuid.UUID | None:
    """The oldest waiting game of the settings with a free seat and nobody kept apart from the
    caller (``apart``: a block either way); none such, quick match opens a new one."""
    game_id: uuid.UUID | None = (
        _waiting(key)
        .exclude(seats__player_id__in=apart)
        .annotate(seated=Count("seats"))
        .filter(seated__lt=F("max_players"))
        .order_by("created_at", "pk")
        .values_list("pk", flat=True)
        .first()
    )
    return game_id


def _fill_from(write: GameWrite, at: datetime) -> None:
    """Bots may fill the game from ``at`` on (the earliest time any of its players asked)."""
    game = write.game
    if game.fill_bots_at is not None and game.fill_bots_at <= at:
        return
    game.fill_bots_at = at
    game.save(update_fields=["fill_bots_at", "updated_at"])
    write.bots_due = at


def bots_due(game: Game) -> bool:
    return (
        game.status == GameStatus.WAITING
        and game.fill_bots_at is not None
        and game.fill_bots_at <= timezone.now()
    )


def game_fill_with_bots(*, game_id: str | uuid.UUID) -> Game:
    """Seat ``basic`` bots in the free seats of a game whose fill time has come, and start it.
    Safe to run twice, and early or late: it acts only on a waiting game past its time."""
    with game_write(game_id) as write:
        game = write.game
        if bots_due(game):
            while len(game.roster) < game.max_players:
                lobby.seat_bot(game, FILL_LEVEL)
            lobby.start(write)
    return write.game


# --- rematch -----------------------------------------------------------------------------------


def game_rematch(*, player: Player, game_id: str | uuid.UUID) -> Game:
    """After a finished game, the first of its players to ask creates the rematch; the others
    join it by the same call, in any order. It starts once every person has joined (but one
    kept apart from a seated player: ``_awaited``)."""
    with game_write(game_id, viewer=player) as old_write:
        old = old_write.game  # locked: the players' calls decide one after another
        lobby.require_seat(old, player)
        if old.status != GameStatus.FINISHED:
            raise DomainError("game_not_finished", f"The game is {old.status}, not finished.")
        rematch_id = old.rematch_id
        if rematch_id is not None:
            status = Game.objects.filter(pk=rematch_id).values_list("status", flat=True).first()
            if status == GameStatus.ABANDONED:  # everyone left it: the next caller starts anew
                rematch_id = None
        if rematch_id is None:
            _require_players_to_come(old, player)
            rematch_id = _create_rematch(old, player).pk
            old.rematch_id = rematch_id
            old.save(update_fields=["rematch", "updated_at"])
        with game_write(rematch_id) as write:
            game = write.game
            if seat_of(game, player) is None:
                if game.status != GameStatus.WAITING:  # it started without one kept apart
                    lobby.require_not_apart(game, player)
                else:
                    lobby.take_seat(write, player, start_when_full=False)
            seated = {entry["id"] for entry in game.roster}
            if (
                game.status == GameStatus.WAITING
                and _awaited(old, seated) <= seated
                and lobby.start_refusal(game) is None
            ):
                lobby.start(write)
    return write.game


def _awaited(old: Game, seated: set[int]) -> set[int]:
    """The persons a rematch of ``old`` waits for: its persons, but those kept apart from one
    seated in it (a block, either way), who take no seat at its table and are not invited. (When
    that leaves too few to start, one alone or short of partners, the rematch waits.)"""
    people = set(_people(old.roster))
    apart = safety.apart_among(people | seated)
    return {pid for pid in people if not apart.get(pid, set()) & seated}


def _people(roster: list[dict[str, Any]]) -> list[int]:
    """The ids of the roster's persons who may play again (a seat a bot took over is still its
    person's): not its bots, nor an account deleted since, which can never take a seat."""
    return _robots_and_people(roster)[1]


def _robots_and_people(roster: list[dict[str, Any]]) -> tuple[set[int], list[int]]:
    """The roster's bots, and its persons who may play again (``_people``)."""
    ids = [entry["id"] for entry in roster]
    robots = set(Bot.objects.filter(user_id__in=ids).values_list("user_id", flat=True))
    gone = set(DeletedAccount.objects.filter(user_id__in=ids).values_list("user_id", flat=True))
    return robots, [pid for pid in ids if pid not in robots and pid not in gone]


def _require_players_to_come(old: Game, player: Player) -> None:
    """A rematch is made only if it could start: its bots, the caller and the persons who may
    join it (``_people``, but those kept apart from the caller) must make a table that starts.
    Else it would wait, private and reserved, for nobody (an opponent deleted their account, or
    blocked the caller, after the game)."""
    robots, people = _robots_and_people(old.roster)
    coming = set(people) - safety.kept_apart(player.pk)
    if lobby.seating_refusal(len(robots) + len(coming), old.team_count()) is not None:
        raise DomainError(
            "not_enough_players",
            "Too few of this game's players can play again (an account was deleted, or a "
            "player blocked you, since): start a new game instead.",
        )


def _create_rematch(old: Game, player: Player) -> Game:
    """The rematch of ``old``: its settings, reserved for its players (private, no code); the
    caller in the first seat and ``old``'s bots seated now; the other persons invited, but those
    kept apart from the caller (a block, either way)."""
    spec = lobby.NewGame(
        max_players=old.max_players,
        target_score=old.target_score,
        turn_timeout=old.turn_timeout,
        max_timeouts=old.max_timeouts,
        rules=old.house_rules(),
        teams=old.team_count() or None,
        bot_takeover=old.bot_takeover,
        spectator_chat=old.spectator_chat,
        private=True,
        bank=old.bank(),
    )
    game, _ = lobby.game_build(player=player, spec=spec)
    game.invite_code = None  # reserved: only the finished game's players join, by rematch
    game = lobby.game_save(game)
    robots, people = _robots_and_people(old.roster)
    with game_write(game.pk) as write:
        for entry in old.roster:
            if entry["id"] in robots:
                lobby.seat_bot_user(write.game, User.objects.get(pk=entry["id"]), entry["bot"])
        # Not one kept apart from the caller: they could take no seat at this table.
        for pid in set(people) - {player.pk} - safety.kept_apart(player.pk):
            write.record(Invited(pid, player.pk, player.get_username()))
    return write.game
