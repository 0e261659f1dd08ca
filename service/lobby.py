"""The services of the lobby: create a game, take and leave seats, start it.

A game waiting for players has no log yet; starting it writes the first events. Every write but
creation goes through the game's unit of work (``service.unit_of_work``), which locks its row.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F

from games import engine, eventstore, matching
from games.engine import limits
from games.engine.options import Bank, clock_setting, preset_rules
from games.engine.rules import check_deck, check_teams
from games.models import TEAMS_KEY, Game, GameStatus, Seat, sees_its_seat
from games.selectors import seat_of
from notifications.outbox import Invited, Joined
from players import safety
from players.locks import lock_player
from players.models import BotAccount
from players.services import is_bot_account
from service import bots
from service.unit_of_work import GameWrite, game_write
from unoservice.errors import DomainError

Player = User


@dataclass(frozen=True)
class NewGame:
    max_players: int = limits.DEFAULT_PLAYERS
    target_score: int = limits.DEFAULT_TARGET_SCORE
    turn_timeout: int = limits.DEFAULT_TURN_TIMEOUT
    max_timeouts: int = limits.DEFAULT_MAX_TIMEOUTS
    rules: dict[str, Any] | None = None
    seed: int | None = None
    deck: list[str] | None = None
    teams: int | None = None
    preset: str = "official"
    bots: tuple[str, ...] = ()  # bot levels for the next seats
    bot_accounts: tuple[str, ...] = ()  # usernames of bot accounts, seated before the bots
    bots_welcome: bool = False  # bot accounts may take a free seat themselves
    bot_takeover: bool = False
    private: bool = False
    spectator_chat: bool = False
    # The bank clock's (initial, increment, max) in seconds; None: the move clock.
    bank: tuple[int, int, int] | None = None


def options_of(game: Game) -> engine.Options:
    bank = game.bank()
    return engine.make_options(
        game.house_rules(),
        target_score=game.target_score,
        max_timeouts=game.max_timeouts,
        teams=game.team_count(),
        bank=None if bank is None else Bank(*bank),
    )


def require_seat(game: Game, player: Player) -> int:
    seat = seat_of(game, player)
    if seat is None:
        raise DomainError("not_a_player", "You have no seat in this game.")
    return seat


def _require_waiting(game: Game) -> None:
    if game.status != GameStatus.WAITING:
        raise DomainError("game_not_waiting", f"The game is {game.status}, not waiting.")


def _require_room_for_a_waiting_game(player: Player) -> None:
    """A player holds a seat in at most ``UNO_MAX_WAITING_GAMES`` waiting games (issue 11: one
    created 1,000 in 10 s). The player's row is locked, so racing requests count one by one."""
    lock_player(player.pk)
    waiting = Seat.objects.filter(player=player, game__status=GameStatus.WAITING).count()
    if waiting >= settings.UNO_MAX_WAITING_GAMES:
        raise DomainError(
            "too_many_waiting_games",
            f"You already have a seat in {waiting} waiting games; start or leave one first.",
        )


def roster_entry(player: Player, bot_account: bool | None = None) -> dict[str, Any]:
    """A seat's player in the roster; a bot account's is marked (``selectors.SEAT_MARKERS``).
    ``bot_account``: whether the player is one, when the caller knows."""
    if bot_account is None:
        bot_account = is_bot_account(player)
    return {
        "id": player.pk,
        "username": player.get_username(),
        **({"bot_account": True} if bot_account else {}),
    }


def require_welcome(game: Game, player: Player) -> bool:
    """Refuse a bot account a seat it takes itself in a public game where bots are not welcome
    (``bots_welcome``): quick match and lists are for people unless the game says otherwise. A
    private game (joined by its code, a challenge, a rematch) was offered to whoever holds it.
    Answers whether ``player`` is a bot account."""
    bot_account = is_bot_account(player)
    if bot_account and not game.private and not game.bots_welcome:
        raise DomainError(
            "bots_not_welcome",
            "This game is for people: a bot account takes a seat itself only in a game whose "
            "settings say bots_welcome (quick match: send bots_welcome true).",
        )
    return bot_account


def game_build(*, player: Player, spec: NewGame) -> tuple[Game, list[str]]:
    """A new game checked and not yet saved, and the levels of the bots it seats: creation,
    quick match (which compares its ``match_key`` first) and rematches build games here."""
    for bound, value in (
        (limits.PLAYERS, spec.max_players),
        (limits.TURN_TIMEOUT, spec.turn_timeout),
    ):
        if not bound.holds(value):
            raise DomainError("invalid", bound.message())
    teams = spec.teams or 0
    options = engine.make_options(
        preset_rules(spec.preset, spec.rules, teams),
        target_score=spec.target_score,
        max_timeouts=spec.max_timeouts,
        teams=teams,
        bank=None if spec.bank is None else Bank(*spec.bank),
    )
    check_teams(spec.max_players, options)
    if spec.deck is not None:
        if not player.is_staff:
            raise DomainError("permission_denied", "Only staff may give a deck.")
        check_deck(spec.deck)
    # A seed fixes every shuffle: whoever knows it knows every hand (issue 11).
    if spec.seed is not None and not (player.is_staff or settings.UNO_SEEDS_FROM_PLAYERS):
        raise DomainError("permission_denied", "Only staff may give a seed.")
    seed = spec.seed if spec.seed is not None else secrets.randbits(63)
    if not limits.SEED.holds(seed):
        raise DomainError("invalid", limits.SEED.message())
    levels = [bots.check_level(level) for level in spec.bots]
    if 1 + len(levels) + len(spec.bot_accounts) > spec.max_players:
        detail = (
            f"{len(levels) + len(spec.bot_accounts)} bots and you do not fit "
            f"{spec.max_players} seats."
        )
        # In an ``invalid`` body's shape: the bots that fit beside the creator and the accounts.
        fit = max(0, spec.max_players - 1 - len(spec.bot_accounts))
        check = {"code": "max_items", "message": detail, "limit": fit}
        raise DomainError(
            "invalid", detail, {"errors": {"bots": [detail]}, "fields": {"bots": [check]}}
        )
    game = Game(
        max_players=spec.max_players,
        target_score=spec.target_score,
        turn_timeout=spec.turn_timeout,
        max_timeouts=spec.max_timeouts,
        rules={**options.rules(), **({TEAMS_KEY: teams} if teams else {})},
        seed=seed,
        deck=spec.deck,
        created_by=player,
        roster=[roster_entry(player, bot_account=False)],  # marked by game_save, under its lock
        bot_takeover=spec.bot_takeover,
        private=spec.private,
        spectator_chat=spec.spectator_chat,
        bots_welcome=spec.bots_welcome,
        clock=clock_setting(options) if options.bank else None,  # None: the move clock
    )
    if spec.private:
        game.invite_code = matching.new_invite_code()
    elif spec.deck is None and spec.seed is None:  # a game quick match may seat strangers in
        game.match_key = matching.settings_key(game)
    return game, levels


def game_create(*, player: Player, spec: NewGame, starts: bool = False) -> Game:
    """A new game waiting for players; the creator takes seat 0, the bot accounts named and the
    bots the next seats. ``starts``: the caller fills it at once (``game_save``)."""
    game, levels = game_build(player=player, spec=spec)
    with transaction.atomic():
        return game_save(game, levels, spec.bot_accounts, starts=starts)


def game_save(
    game: Game,
    levels: Sequence[str] = (),
    accounts: Sequence[str] = (),
    *,
    starts: bool = False,
) -> Game:
    """Save a game of ``game_build`` (in the caller's transaction): its creator takes seat 0,
    the bot accounts of ``accounts`` (usernames) and then the bots of ``levels`` the next seats;
    a game they fill starts. ``starts``: the caller starts it in the same transaction (an
    accepted challenge), so it never waits and the creator's waiting games do not count: an
    accepted challenge was refused for the challenger's, which the one accepting cannot help."""
    if not starts:
        _require_room_for_a_waiting_game(game.created_by)  # locks the creator's row: read it now
    game.roster = [roster_entry(game.created_by), *game.roster[1:]]
    game.save()
    Seat.objects.create(game=game, number=0, player=game.created_by)
    if levels or accounts:
        with game_write(game.pk) as write:
            for name in accounts:
                seat_bot_account(write, game.created_by, name)
            for level in levels:
                _seat_bot(write.game, level)
            if len(write.game.roster) == write.game.max_players:
                _start(write)
        game = write.game
    return game


def _seat_bot(game: Game, level: str) -> None:
    """A bot of ``level`` takes the next free seat (the caller starts a full game)."""
    seat_bot_user(game, bots.bot_user(level, {entry["id"] for entry in game.roster}), level)


seat_bot = _seat_bot


def seat_bot_user(game: Game, user: User, level: str) -> None:
    """The bot ``user`` takes the next free seat (the caller starts a full game)."""
    Seat.objects.create(game=game, number=len(game.roster), player=user)
    game.roster = [*game.roster, bots.roster_entry(user, level)]
    game.save(update_fields=["roster", "updated_at"])


def bot_account_named(name: str) -> User:
    """The bot account whose username is ``name`` (ignoring case, as usernames are unique)."""
    user = User.objects.filter(
        username__iexact=name, pk__in=BotAccount.objects.values("user_id")
    ).first()
    if user is None:
        raise DomainError("not_a_bot_account", f"No bot account is named {name!r}.")
    return user


def seat_bot_account(write: GameWrite, host: Player, name: str) -> int:
    """The host seats the bot account named ``name`` in the next free seat of the locked game,
    as a person's seat (its program plays it; the server never does), and it is told so: the
    ``invited`` notification (its player stream, webhooks), and ``player_joined`` to the others.
    No waiting-games limit of its own: the host's bounds it. The caller starts a full game."""
    game = write.game
    user = bot_account_named(name)
    if seat_of(game, user) is not None:
        raise DomainError("already_seated", f"{user.get_username()} has a seat in this game.")
    if len(game.roster) >= game.max_players:
        raise DomainError("game_full", "Every seat of this game is taken.")
    if safety.any_apart(user.pk, (entry["id"] for entry in game.roster)):
        raise DomainError("blocked", "A player at this table and this bot account keep apart.")
    seat = len(game.roster)
    Seat.objects.create(game=game, number=seat, player=user)
    game.roster = [*game.roster, roster_entry(user, bot_account=True)]
    game.save(update_fields=["roster", "updated_at"])
    write.record(Joined(seat, user.pk, user.get_username()))
    write.record(Invited(user.pk, host.pk, host.get_username()))
    return seat


def game_add_bot(
    *,
    player: Player,
    game_id: str | uuid.UUID,
    level: str | None = None,
    account: str | None = None,
) -> Game:
    """The host seats a bot of ``level`` (or the bot account named ``account``) in a waiting
    game; a game it fills starts."""
    if account is None:
        level = bots.check_level(level)
    with game_write(game_id, viewer=player) as write:
        game = write.game
        number = require_seat(game, player)
        if len(game.roster) >= game.max_players:
            raise DomainError("game_full", "Every seat of this game is taken.")
        _require_waiting(game)
        if number != 0:
            raise DomainError("permission_denied", "Only the host (seat 0) seats bots.")
        if account is not None:
            seat_bot_account(write, player, account)
        else:
            assert level is not None
            _seat_bot(game, level)
        if len(game.roster) == game.max_players:
            _start(write)
    return game


def game_join(*, player: Player, game_id: str | uuid.UUID) -> Game:
    """Take the next free seat; a game whose seats are all taken starts by itself."""
    with game_write(game_id, viewer=player) as write:
        if write.game.private and seat_of(write.game, player) is None:
            raise DomainError("permission_denied", "A private game is joined by its invite code.")
        take_seat(write, player)
    return write.game


def require_not_apart(game: Game, player: Player) -> None:
    """Refuse ``player`` a table where one kept apart from them sits (a block, either way)."""
    if safety.any_apart(player.pk, (entry["id"] for entry in game.roster)):
        raise DomainError("blocked", "A player at this table and you keep apart (a block).")


def take_seat(write: GameWrite, player: Player, *, start_when_full: bool = True) -> int:
    """``player`` takes the next free seat of the locked game (its number is returned); a game
    it fills starts (unless ``start_when_full`` is False: the caller starts it)."""
    game = write.game
    if seat_of(game, player) is not None:
        raise DomainError("already_seated", "You already have a seat in this game.")
    # Checked before the status: a game whose seats are all taken has started by itself.
    if len(game.roster) >= game.max_players:
        raise DomainError("game_full", "Every seat of this game is taken.")
    _require_waiting(game)
    require_welcome(game, player)
    require_not_apart(game, player)
    if len(game.roster) + 1 < game.max_players:  # the game stays waiting after this join
        _require_room_for_a_waiting_game(player)
    seat = len(game.roster)
    Seat.objects.create(game=game, number=seat, player=player)
    # Read after the seat's row: a mark racing this seat committed before it, or sees it.
    game.roster = [*game.roster, roster_entry(player)]
    game.save(update_fields=["roster", "updated_at"])
    write.record(Joined(seat, player.pk, player.get_username()))
    if start_when_full and len(game.roster) == game.max_players:
        _start(write)
    return seat


def game_leave(*, player: Player, game_id: str | uuid.UUID) -> Game:
    """Leave a game that has not started; the seats after close up. The host (seat 0, who
    starts the game and seats bots; ``created_by`` names them) is a person: when the host leaves,
    the next person seated takes seat 0 (ahead of the bots before them). A game left without a
    person (empty, or bots only: nobody could start it) is abandoned."""
    with game_write(game_id, viewer=player) as write:
        game = write.game
        number = require_seat(game, player)
        _require_waiting(game)
        Seat.objects.filter(game=game, number=number).delete()
        left = [entry for i, entry in enumerate(game.roster) if i != number]
        people = [entry for entry in left if sees_its_seat(entry)]  # no bot plays it
        if people:
            host = people[0]
            _seat_in_order(game, [host, *(entry for entry in left if entry is not host)])
            game.created_by_id = host["id"]
        else:
            _seat_in_order(game, left)
            game.status = GameStatus.ABANDONED
        game.save(update_fields=["roster", "status", "created_by", "updated_at"])
    return game


def game_start(*, player: Player, game_id: str | uuid.UUID) -> Game:
    """The host (seat 0, the creator unless they left) starts the game with 2 or more seated."""
    with game_write(game_id, viewer=player) as write:
        game = write.game
        number = require_seat(game, player)
        _require_waiting(game)
        if number != 0:
            raise DomainError("permission_denied", "Only the host (seat 0) starts the game.")
        refusal = start_refusal(game)
        if refusal is not None:
            raise refusal
        _start(write)
    return game


def start_refusal(game: Game) -> DomainError | None:
    """Why the seated players cannot start ``game`` (None: they can). The host's start and a
    rematch ask."""
    return seating_refusal(len(game.roster), game.team_count())


def seating_refusal(players: int, teams: int | None) -> DomainError | None:
    """Why ``players`` seated cannot start a game of ``teams`` (None: they can): 2 or more, and
    for partners a multiple of the teams, 2 or more each."""
    if players < 2:
        return DomainError("not_enough_players", "A game needs at least 2 players.")
    if teams and (players % teams or players < 2 * teams):
        return DomainError(
            "not_enough_players",
            f"A game of {teams} teams starts with a multiple of {teams} players, "
            f"at least {2 * teams}.",
        )
    return None


def _start(write: GameWrite) -> None:
    game = write.game
    _arrange_rematch(game)
    players = len(game.roster)
    events = engine.start_game(players, options_of(game), game.seed, deck=game.deck, salt=game.salt)
    eventstore.create_hands(game, players)
    game.away = None  # the players' vacations are read when the first clock starts
    write.append(events, engine.replay(events))


start = _start


def _arrange_rematch(game: Game) -> None:
    """A rematch (``service.tables``) takes its seats, at the start, in the finished game's order
    shifted by one: the player after the first round's dealer (the last seat) deals now. The
    seats are numbered in the order of joining until then."""
    if not game.private or game.invite_code:
        return
    previous = Game.objects.filter(rematch=game).values_list("roster", flat=True).first()
    if previous is None:
        return
    ids = [entry["id"] for entry in previous]
    rank = {pid: i for i, pid in enumerate(ids[1:] + ids[:1])}
    arranged = sorted(game.roster, key=lambda entry: rank.get(entry["id"], len(rank)))
    if arranged == game.roster:
        return
    _seat_in_order(game, arranged)
    game.save(update_fields=["roster", "updated_at"])


def _seat_in_order(game: Game, arranged: list[dict[str, Any]]) -> None:
    """Number the seats of ``game`` (its ``Seat`` rows and its roster, which the caller saves)
    in the order of ``arranged``, the roster's entries reordered."""
    # Out of the way first: (game, number) is unique at every statement.
    Seat.objects.filter(game=game).update(number=F("number") + limits.PLAYERS.high)
    for number, entry in enumerate(arranged):
        Seat.objects.filter(game=game, player_id=entry["id"]).update(number=number)
    game.roster = arranged
