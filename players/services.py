"""Writes of the players app: registration, guests, bot accounts, API tokens, the password and
vacations.

Every refusal is a ``DomainError`` with the API contract's code, so callers other than the HTTP
API (management commands, tests) get the same rules and the same errors.
"""

from __future__ import annotations

import contextlib
import math
import secrets
from collections.abc import Collection
from datetime import UTC, datetime, timedelta

from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, models, transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token

from games.engine.limits import VACATION_DAYS, VACATION_DAYS_PER_YEAR
from games.models import Entrant, Game, Seat, TournamentStatus
from players.locks import lock_player
from players.models import (
    GUEST_ALPHABET,
    GUEST_NAME_LENGTH,
    GUEST_PREFIX,
    AccessToken,
    BotAccount,
    Guest,
    Session,
    Vacation,
    reserved_name_refusal,
)
from players.sessions import Pair, session_end, session_start, sessions_end_others
from unoservice.errors import DomainError, invalid_field


def _username_taken(username: str) -> DomainError:
    return DomainError("username_taken", f"The username {username!r} is taken.")


def _validate_username(user: User) -> None:
    """Run the username field's own rules (not blank, at most 150, letters, digits and @.+-_),
    then the service's: not a guest's form of name. Every name a person chooses passes here."""
    field = User._meta.get_field("username")
    assert isinstance(field, models.CharField)
    try:
        field.clean(user.username, user)
    except DjangoValidationError as exc:
        raise invalid_field("username", exc) from exc
    refusal = reserved_name_refusal(user.username)
    if refusal is not None:
        raise DomainError("username_reserved", f"username: {refusal}")


def player_register(*, username: str, password: str) -> User:
    """Create a player after Django's username rules and ``AUTH_PASSWORD_VALIDATORS``.

    A username is taken when another one equals it ignoring case (as Django's own
    ``UserCreationForm`` decides), so ``Alice`` and ``alice`` cannot both exist.
    """
    user = User(username=User.normalize_username(username))
    _validate_username(user)
    try:
        validate_password(password, user=user)
    except DjangoValidationError as exc:
        raise invalid_field("password", exc) from exc
    if User.objects.filter(username__iexact=user.username).exists():
        raise _username_taken(user.username)
    user.set_password(password)
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError as exc:  # a concurrent registration of the same name won the race
        raise _username_taken(user.username) from exc
    return user


# --- guests --------------------------------------------------------------------------------------


def generated_name(prefix: str) -> str:
    """A name the service gives: ``prefix`` (``GUEST_PREFIX``, ``DELETED_PREFIX``: forms no person
    may choose) and ``GUEST_NAME_LENGTH`` letters and digits without look-alikes."""
    return prefix + "".join(secrets.choice(GUEST_ALPHABET) for _ in range(GUEST_NAME_LENGTH))


def guest_create(*, user_agent: str = "", address: str | None = None) -> tuple[User, Pair]:
    """A guest account: a generated username, no password (it signs in with its session's
    tokens only) and its first session. It plays as any player does, but the games it sits in
    are not rated."""
    for _ in range(5):  # a name already taken (about one in 2**41 per existing player): again
        user = User(username=generated_name(GUEST_PREFIX))
        user.set_unusable_password()
        try:
            with transaction.atomic():
                user.save()
                Guest.objects.create(user=user)
                return user, session_start(user=user, user_agent=user_agent, address=address)
        except IntegrityError:
            continue
    raise RuntimeError("no free guest name after 5 draws")  # pragma: no cover


def is_guest(user: User) -> bool:
    return Guest.objects.filter(user=user).exists()


def guest_claim(*, user: User, username: str, password: str) -> User:
    """Turn the guest ``user`` into a full account named ``username`` with ``password`` (the
    registration's rules), keeping its games, its token and its notifications."""
    with transaction.atomic():
        guest = Guest.objects.select_for_update().filter(user=user).first()
        if guest is None:
            raise DomainError("not_a_guest", "Only a guest account can be claimed.")
        user = User.objects.get(pk=user.pk)  # the caller's own copy stays as it was if refused
        user.username = User.normalize_username(username)
        _validate_username(user)
        try:
            validate_password(password, user=user)
        except DjangoValidationError as exc:
            raise invalid_field("password", exc) from exc
        if User.objects.filter(username__iexact=user.username).exclude(pk=user.pk).exists():
            raise _username_taken(user.username)
        user.set_password(password)
        try:
            with transaction.atomic():
                user.save(update_fields=["username", "password"])
        except IntegrityError as exc:  # a concurrent registration of the same name won the race
            raise _username_taken(user.username) from exc
        rename_in_rosters(user)
        guest.delete()
    return user


def rename_in_rosters(user: User) -> None:
    """The claimed name in the rosters of every game ``user`` sits at (every view of a game, its
    replay included, names its seats from the roster). Each game row is locked, as a join that
    rewrites the roster locks it, so neither undoes the other."""
    games = Game.objects.select_for_update().filter(seats__player=user)
    games = games.only("id", "roster").order_by("pk")
    for game in games:
        game.roster = [
            {**entry, "username": user.get_username()} if entry.get("id") == user.pk else entry
            for entry in game.roster
        ]
        game.save(update_fields=["roster"])


# --- bot accounts ---------------------------------------------------------------------------------


def is_bot_account(user: User) -> bool:
    """Whether ``user`` is a bot account (its program plays it: ``players.models.BotAccount``)."""
    return BotAccount.objects.filter(user_id=user.pk).exists()


def bot_accounts_among(players: Collection[int]) -> set[int]:
    """Which of ``players`` are bot accounts, in one query (a table's roster, a tournament's
    players and standings mark them)."""
    return set(BotAccount.objects.filter(user_id__in=players).values_list("user_id", flat=True))


def bot_account_mark(*, user: User) -> bool:
    """Mark ``user``'s own account a bot account, for good; True if it was not one before.

    Only before the account has sat in any game (waiting ones included): every seat it ever
    takes is then marked as a bot account's in the game's roster, so no view shows an old seat
    of it as a person's. A guest cannot (claim it first: a bot account is rated, a guest is not).
    Nor can an account entered (not withdrawn) in a tournament not over whose host does not
    allow bots: it would be paired there as a person (``in_tournament_without_bots``; withdraw
    first). Asked again, an account that is one already is left as it is. The user row is locked
    ``FOR UPDATE``, which a seat being inserted for it (a foreign key's ``KEY SHARE``), a new
    game's creator lock and a tournament's join (``service.tournaments``) wait on, so a seat
    taken or an entry made at the same time is either seen here or made after the mark, its
    roster entry (``service.lobby``: marked) or its check of bots read after it."""
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()
        if BotAccount.objects.filter(user_id=user.pk).exists():
            return False
        if Guest.objects.filter(user_id=user.pk).exists():
            raise DomainError(
                "guest_account", "A guest cannot become a bot account: claim the account first."
            )
        if Seat.objects.filter(player_id=user.pk).exists():
            raise DomainError(
                "account_has_played",
                "This account has sat in a game: a bot account is made before its first game "
                "(register a new account for the program).",
            )
        if _in_tournament_without_bots(user):
            raise DomainError(
                "in_tournament_without_bots",
                "This account takes part in a tournament whose host does not allow bots: "
                "withdraw from it first (or wait until it ends).",
            )
        BotAccount.objects.create(user=user)
    return True


def _in_tournament_without_bots(user: User) -> bool:
    """Whether ``user`` is entered (not withdrawn) in a tournament not over that takes no bots."""
    return (
        Entrant.objects.filter(
            player_id=user.pk, withdrawn_at__isnull=True, tournament__bots_allowed=False
        )
        .exclude(tournament__status=TournamentStatus.FINISHED)
        .exists()
    )


def token_issue(
    *, username: str, password: str, user_agent: str = "", address: str | None = None
) -> Pair:
    """A new session of the player (a sign-in on one device) and its first pair of tokens."""
    user = authenticate(username=username, password=password)
    if not isinstance(user, User):  # wrong credentials, or an inactive account
        raise DomainError(
            "invalid_credentials", "Unable to log in with the given username and password."
        )
    return session_start(user=user, user_agent=user_agent, address=address)


def token_revoke(*, user: User, auth: object = None) -> None:
    """Log out: end the session of the access token ``auth`` (its tokens authenticate nothing
    from now on); for an old DRF key (``UNO_LEGACY_TOKENS``), delete the player's key as before.
    Idempotent."""
    if isinstance(auth, AccessToken):
        with contextlib.suppress(DomainError):  # ended meanwhile
            session_end(user=user, session_id=auth.session_id, why=Session.ENDED_LOGOUT)
        return
    Token.objects.filter(user=user).delete()


# --- the password -------------------------------------------------------------------------------


def password_change(
    *, user: User, current_password: str, new_password: str, auth: object = None
) -> int:
    """Change ``user``'s password: ``current_password`` must be theirs, ``new_password`` pass
    ``AUTH_PASSWORD_VALIDATORS``. Every other session of theirs ends (a device signed in with the
    old password, or whoever took a token, is signed out); the session of ``auth``, the caller's
    access token, goes on. Old DRF keys (``UNO_LEGACY_TOKENS``) are deleted but the caller's own.
    A guest has no password to change: it claims the account (``guest_claim``). Returns how many
    sessions ended."""
    with transaction.atomic():
        lock_player(user.pk)
        user = User.objects.get(pk=user.pk)  # the caller's own copy stays as it was if refused
        if is_guest(user):
            raise DomainError(
                "guest_account",
                "A guest account has no password: claim it first (POST /api/v1/players/me/claim/).",
            )
        if not user.check_password(current_password):
            raise DomainError("invalid_credentials", "The current password is wrong.")
        return password_set(user=user, new_password=new_password, auth=auth)


def password_set(*, user: User, new_password: str, auth: object = None) -> int:
    """Set ``user``'s password (in the caller's transaction, the player locked), if it passes
    ``AUTH_PASSWORD_VALIDATORS``, and end every session of theirs but that of ``auth`` (the
    caller's access token, if any), deleting their old DRF keys but ``auth``; how many sessions
    ended."""
    try:
        validate_password(new_password, user=user)
    except DjangoValidationError as exc:
        raise invalid_field("new_password", exc) from exc
    user.set_password(new_password)
    user.save(update_fields=["password"])
    keep = auth.session_id if isinstance(auth, AccessToken) else None
    ended = sessions_end_others(user=user, keep=keep, why=Session.ENDED_PASSWORD)
    legacy = Token.objects.filter(user=user)
    if isinstance(auth, Token):
        legacy = legacy.exclude(pk=auth.pk)
    legacy.delete()
    return ended


# --- vacations -----------------------------------------------------------------------------------

_DAY = timedelta(days=1)


def _year_bounds(moment: datetime) -> tuple[datetime, datetime]:
    start = datetime(moment.year, 1, 1, tzinfo=UTC)
    return start, datetime(moment.year + 1, 1, 1, tzinfo=UTC)


def _within(begin: datetime, end: datetime, year: tuple[datetime, datetime]) -> timedelta:
    return max(min(end, year[1]) - max(begin, year[0]), timedelta(0))


def vacation_used(player: User, year: tuple[datetime, datetime]) -> timedelta:
    """The vacation time ``player`` has taken (or declared) in a calendar year (UTC)."""
    rows = Vacation.objects.filter(
        player=player, starts_at__lt=year[1], ends_at__gt=year[0]
    ).values_list("starts_at", "ends_at")
    return sum((_within(begin, end, year) for begin, end in rows), timedelta(0))


def vacation_current(player: User, now: datetime) -> Vacation | None:
    return Vacation.objects.filter(player=player, starts_at__lte=now, ends_at__gt=now).first()


def vacation_start(*, player: User, days: int) -> Vacation:
    """Record a vacation of ``days`` from now. A calendar year allows ``VACATION_DAYS_PER_YEAR``
    days in all (a vacation over New Year counts in both years). The player's games read it
    when the application layer re-clocks them (``service.vacations``), in the same transaction."""
    if not VACATION_DAYS.holds(days):
        raise DomainError("invalid", VACATION_DAYS.message())
    with transaction.atomic():
        lock_player(player.pk)  # one change of the player's vacations at a time
        now = timezone.now()
        current = vacation_current(player, now)
        if current is not None:
            raise DomainError(
                "already_on_vacation",
                f"You are on vacation until {current.ends_at.isoformat()}; end it first.",
            )
        ends = now + days * _DAY
        allowed = VACATION_DAYS_PER_YEAR * _DAY
        for moment in (now, ends):
            year = _year_bounds(moment)
            left = allowed - vacation_used(player, year)
            if _within(now, ends, year) > left:
                raise DomainError(
                    "vacation_days_used_up",
                    f"{_days(max(left, timedelta(0)))} vacation days are left in "
                    f"{year[0].year}: {days} do not fit.",
                )
        vacation = Vacation.objects.create(player=player, starts_at=now, ends_at=ends)
    return vacation


def vacation_end(*, player: User) -> Vacation:
    """End the current vacation now: the time it had not used is the player's again (the
    application layer then re-clocks their games, ``service.vacations``)."""
    with transaction.atomic():
        lock_player(player.pk)  # one change of the player's vacations at a time
        now = timezone.now()
        vacation = vacation_current(player, now)
        if vacation is None:
            raise DomainError("not_on_vacation", "You are not on vacation.")
        vacation.ends_at = now
        vacation.save(update_fields=["ends_at"])
    return vacation


def vacation_days_left(player: User, now: datetime) -> float:
    """The vacation days left in the calendar year of ``now``."""
    year = _year_bounds(now)
    left = VACATION_DAYS_PER_YEAR * _DAY - vacation_used(player, year)
    # Rounded down: 13.99996 days left is not 14 (a 14-day vacation would not fit).
    return math.floor(max(left, timedelta(0)) / _DAY * 10_000) / 10_000


def _days(span: timedelta) -> str:
    """Days, rounded down to hundredths: what is left is never said to be more than it is (a
    vacation ended after 3 s left 13.99996, said '14 are left: 14 do not fit')."""
    return f"{math.floor(span / _DAY * 100) / 100:.2f}".rstrip("0").rstrip(".")
