"""Sessions: short-lived access tokens and rotating, single-use refresh tokens.

A sign-in (logging in, registering, a new guest) starts a ``Session`` and answers a pair: an
access token (``UNO_ACCESS_TOKEN_SECONDS``) that every call sends as ``Authorization: Token …``,
and a refresh token (``UNO_REFRESH_TOKEN_DAYS``) traded once for a new pair
(``session_refresh``). A refresh token traded a second time means two parties hold it (OAuth 2.1,
section 4.3.1: refresh token rotation): the whole session ends, every token of it, and the caller
gets 401 ``token_reused``. An access token issued before a refresh lives until its own expiry (at
most one access lifetime): calls already under way with it still succeed.

Only the SHA-256 of each token is stored; the token itself (``uat_…`` or ``urt_…`` and 32 random
bytes) is shown once, in the answer that issues it. Why not a library (simplejwt, knox, the OAuth
toolkit): docs/api.md, "Sessions".
"""

from __future__ import annotations

import hashlib
import ipaddress
import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache

from django.conf import settings
from django.contrib.auth.models import User
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from rest_framework.authtoken.models import Token

from players.models import AccessToken, RefreshToken, Session
from unoservice import prepared
from unoservice.errors import DomainError

ACCESS_PREFIX = "uat_"
REFRESH_PREFIX = "urt_"
TOKEN_BYTES = 32
USER_AGENT_MAX = 256
# ``last_used_at`` is written at most this often per session (not on every call).
LAST_USED_STEP = timedelta(seconds=60)


@dataclass(frozen=True)
class Pair:
    """What a sign-in or a refresh answers; the two secrets exist nowhere else."""

    session: Session
    access: str
    access_expires_at: datetime
    refresh: str
    refresh_expires_at: datetime


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def truncate_address(address: str | None) -> str:
    """The network a client is in, not its address: an IPv4 /24 (``203.0.113.0/24``), an IPv6
    /48; '' for anything that is not an address."""
    try:
        ip = ipaddress.ip_address((address or "").strip())
    except ValueError:
        return ""
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    prefix = 24 if ip.version == 4 else 48
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))


def _lifetimes() -> tuple[timedelta, timedelta]:
    return (
        timedelta(seconds=settings.UNO_ACCESS_TOKEN_SECONDS),
        timedelta(days=settings.UNO_REFRESH_TOKEN_DAYS),
    )


def _issue(session: Session, now: datetime) -> Pair:
    access_life, refresh_life = _lifetimes()
    access = ACCESS_PREFIX + secrets.token_urlsafe(TOKEN_BYTES)
    refresh = REFRESH_PREFIX + secrets.token_urlsafe(TOKEN_BYTES)
    access_row = AccessToken.objects.create(
        digest=digest(access), session=session, expires_at=now + access_life
    )
    refresh_row = RefreshToken.objects.create(
        digest=digest(refresh), session=session, created_at=now, expires_at=now + refresh_life
    )
    return Pair(session, access, access_row.expires_at, refresh, refresh_row.expires_at)


def _sweep(user: User, now: datetime) -> None:
    """Drop what can no longer authenticate anything of ``user``'s: expired access tokens, and
    sessions ended or unrefreshed for longer than a refresh token lives."""
    _, refresh_life = _lifetimes()
    AccessToken.objects.filter(session__user=user, expires_at__lte=now).delete()
    Session.objects.filter(user=user, last_used_at__lt=now - refresh_life).delete()
    Session.objects.filter(user=user, ended_at__lt=now - refresh_life).delete()


def session_start(*, user: User, user_agent: str = "", address: str | None = None) -> Pair:
    """A new session of ``user`` (a sign-in on one device) and its first pair."""
    now = timezone.now()
    with transaction.atomic():
        _sweep(user, now)
        session = Session.objects.create(
            id=uuid.uuid4(),
            user=user,
            created_at=now,
            last_used_at=now,
            user_agent=(user_agent or "")[:USER_AGENT_MAX],
            address=truncate_address(address),
        )
        return _issue(session, now)


def _refused() -> DomainError:
    return DomainError(
        "not_authenticated", "The refresh token is unknown, expired or ended: sign in again."
    )


def session_refresh(*, refresh: str, address: str | None = None) -> Pair:
    """Trade ``refresh`` for a new pair of its session. A refresh token traded before ends the
    session (every token of it) and is refused with ``token_reused``; an unknown or expired one,
    or one of a session ended otherwise, with ``not_authenticated``."""
    now = timezone.now()
    with transaction.atomic():
        row = (
            RefreshToken.objects.select_for_update(of=("self", "session"))
            .select_related("session", "session__user")
            .filter(digest=digest(refresh))
            .first()
        )
        if row is None:
            raise _refused()
        session = row.session
        if session.ended_at is not None:
            if session.ended_why == Session.ENDED_REUSED:
                raise _reused()
            raise _refused()
        if row.used_at is not None:
            # Ended outside the refusal: raised in here, the end would be rolled back with it.
            _end(session, Session.ENDED_REUSED, now)
            pair = None
        else:
            if row.expires_at <= now or not session.user.is_active:
                raise _refused()
            row.used_at = now
            row.save(update_fields=["used_at"])
            session.last_used_at = now
            fields = ["last_used_at"]
            if truncate_address(address):
                session.address = truncate_address(address)
                fields.append("address")
            session.save(update_fields=fields)
            pair = _issue(session, now)
    if pair is None:
        raise _reused()
    return pair


def _reused() -> DomainError:
    return DomainError(
        "token_reused",
        "This refresh token was used before, so another party may hold it: its session is "
        "ended. Sign in again.",
    )


def _end(session: Session, why: str, now: datetime) -> None:
    session.ended_at = now
    session.ended_why = why
    session.save(update_fields=["ended_at", "ended_why"])
    AccessToken.objects.filter(session=session).delete()
    # The refresh rows stay (until the sweep): a later use of one is told apart from a forged one.


def session_end(
    *, user: User, session_id: uuid.UUID | str, why: str = Session.ENDED_REVOKED
) -> None:
    """End one of ``user``'s sessions: its tokens authenticate nothing from now on. 404
    ``not_found`` for a session that is not theirs (or is already ended)."""
    with transaction.atomic():
        session = (
            Session.objects.select_for_update()
            .filter(pk=session_id, user=user, ended_at__isnull=True)
            .first()
        )
        if session is None:
            raise DomainError("not_found", "No such session of yours.")
        _end(session, why, timezone.now())


def session_end_by_refresh(*, refresh: str, user: User | None = None) -> None:
    """Log out with the session's refresh token: a phone whose access token expired ends its
    session without trading the refresh token for a pair first (which would only make one more
    live pair to end). The refresh token can already do more (make new pairs), so ending its
    session gives its holder nothing. A spent one (traded before) ends the session as a refresh
    would, told apart as a reuse; a session ended already stays so (idempotent). An unknown one,
    or one of another player than ``user`` (the caller, when the call also signed in), is 401
    ``not_authenticated``, as a refresh answers it."""
    with transaction.atomic():
        row = (
            RefreshToken.objects.select_for_update(of=("self", "session"))
            .select_related("session")
            .filter(digest=digest(refresh))
            .first()
        )
        if row is None or (user is not None and row.session.user_id != user.pk):
            raise _refused()
        session = row.session
        if session.ended_at is None:
            why = Session.ENDED_LOGOUT if row.used_at is None else Session.ENDED_REUSED
            _end(session, why, timezone.now())


def sessions_end_others(*, user: User, keep: uuid.UUID | None, why: str) -> int:
    """End every open session of ``user`` but ``keep`` (inside the caller's transaction: each
    row locked, as a refresh locks it, so none rotates a pair while it ends); how many ended."""
    now = timezone.now()
    others = Session.objects.select_for_update().filter(user=user, ended_at__isnull=True)
    if keep is not None:
        others = others.exclude(pk=keep)
    ended = list(others)
    for session in ended:
        _end(session, why, now)
    return len(ended)


def session_open(session_id: uuid.UUID) -> bool:
    """Whether the session ``session_id`` still signs its player in (not ended, not swept)."""
    return Session.objects.filter(pk=session_id, ended_at__isnull=True).exists()


def old_key_signs_in(user_id: int, key: str | None) -> bool:
    """Whether a sign-in made without a session still holds: an old DRF key (``key``: it is
    deleted by a password change and by the account's deletion) or, without one, a stream
    ticket made with such a key (the account still has one) or the admin's cookie (staff). The
    account must be active either way (a deleted account is not)."""
    active = User.objects.filter(pk=user_id, is_active=True)
    if key is not None:
        return Token.objects.filter(key=key, user__in=active).exists()
    return active.filter(Q(is_staff=True) | Q(auth_token__isnull=False)).exists()


def sessions_of(user: User) -> QuerySet[Session]:
    """``user``'s open sessions, the most recently used first."""
    return Session.objects.filter(user=user, ended_at__isnull=True).order_by("-last_used_at", "id")


@dataclass(frozen=True)
class _AccessReader:
    """The access token's row with its session and user, in one statement written once
    (``unoservice.prepared``): every authenticated call runs it, and the ORM's compile of the
    same join cost more than the rest of a game view."""

    sql: str
    token: prepared.RowReader[AccessToken]
    session: prepared.RowReader[Session]
    user: prepared.RowReader[User]


@cache
def _access_reader(vendor: str) -> _AccessReader:
    db = connections[DEFAULT_DB_ALIAS]
    t, s, u = AccessToken._meta.db_table, Session._meta.db_table, User._meta.db_table
    token = prepared.RowReader.of(AccessToken, db, "t")
    session = prepared.RowReader.of(Session, db, "s")
    user = prepared.RowReader.of(User, db, "u")
    sql = (
        f"SELECT {token.columns}, {session.columns}, {user.columns} FROM {t} AS t"
        f" JOIN {s} AS s ON s.id = t.session_id JOIN {u} AS u ON u.id = s.user_id"
        " WHERE t.digest = %s AND s.ended_at IS NULL"
    )
    return _AccessReader(sql, token, session, user)


def _access_row(token: str) -> AccessToken | None:
    """The access token of ``token`` (its session and user attached), None if none or ended."""
    db = connections[DEFAULT_DB_ALIAS]
    reader = _access_reader(db.vendor)
    found = prepared.fetch(db, [(reader.sql, [digest(token)])])
    if not found:
        return None
    row = found[0]
    access = reader.token.build(db, row)
    session = reader.session.build(db, row, reader.token.width)
    session.user = reader.user.build(db, row, reader.token.width + reader.session.width)
    access.session = session
    return access


def access_check(token: str, *, to_log_out: bool = False) -> AccessToken:
    """The access token row of ``token`` with its session and user, touching the session's
    ``last_used_at`` (at most once a minute). Raises ``LookupError`` for an unknown token, or
    one of an ended session, and ``TimeoutError`` for an expired one.

    ``to_log_out`` (the logout's authentication only): an expired token is taken too while it is
    its live session's newest, so a phone whose token expired can end its session. Not an older
    one of that session (a copy left in a log since, say): the client's own token is the newest,
    as every refresh makes a newer one."""
    row = _access_row(token)
    if row is None:
        raise LookupError("unknown access token")
    now = timezone.now()
    if row.expires_at <= now:
        newer = AccessToken.objects.filter(session_id=row.session_id, expires_at__gt=row.expires_at)
        if not to_log_out or newer.exists():
            raise TimeoutError("expired access token")
        return row
    session = row.session
    if session.last_used_at < now - LAST_USED_STEP:
        Session.objects.filter(pk=session.pk, last_used_at=session.last_used_at).update(
            last_used_at=now
        )
        session.last_used_at = now
    return row
