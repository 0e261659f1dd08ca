"""Player models: Django's ``User`` is the player; a ``Bot`` row marks a user as a bot."""

from __future__ import annotations

import re

from django.conf import settings
from django.db import models

from games.engine.shapes import BOT_LEVELS

BOT_LEVEL_CHOICES = [(level, level.capitalize()) for level in BOT_LEVELS]


class Bot(models.Model):
    """A user played by the server at ``level`` (``games.engine.bots.LEVELS``). Its password is
    unusable and the account inactive, so it cannot sign in; it sits in games and is shown in
    profiles and lists like any player, with ``"bot": level``."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="bot"
    )
    level = models.CharField(max_length=16, choices=BOT_LEVEL_CHOICES)

    def __str__(self) -> str:
        return f"Bot {self.user_id} ({self.level})"


class Rating(models.Model):
    """A player's OpenSkill rating (Plackett-Luce, ``players.ratings``), updated in the
    transaction that ends each of their games; ``ordinal`` (mu - 3 sigma) orders the leaderboard.
    A player without a row has the model's starting rating."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="rating"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    games_played = models.PositiveIntegerField(default=0)
    games_won = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["-ordinal", "user"], name="rating_leaderboard")]

    def __str__(self) -> str:
        return f"Rating of {self.user_id}: {self.mu:.2f} ± {self.sigma:.2f}"


class Vacation(models.Model):
    """A player's vacation: their clocks stand still in the games that pause (the rule book's
    Time section) from ``starts_at`` to ``ends_at``. Ending one early moves ``ends_at`` to then."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["player", "starts_at"]
        indexes = [models.Index(fields=["player", "ends_at"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_at__gte=models.F("starts_at")),
                name="vacation_ends_after_start",
            )
        ]

    def __str__(self) -> str:
        return f"Vacation of {self.player_id} from {self.starts_at:%Y-%m-%d}"


# A guest's generated name: GUEST_PREFIX, then GUEST_NAME_LENGTH letters and digits without
# look-alikes (about 41 bits). A name a person chooses (registering, claiming a guest) may not
# begin with the prefix, ignoring case as usernames are compared: a name that looks like a
# guest's is one, and a full account cannot pass for a guest nor a guest for someone else.
GUEST_PREFIX = "guest-"
GUEST_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
GUEST_NAME_LENGTH = 8
GUEST_NAME_HELP = f"`{GUEST_PREFIX}` and {GUEST_NAME_LENGTH} letters and digits"
# Why a chosen name of that form is refused (the API's `username_reserved`, the admin's forms).
GUEST_NAME_RESERVED = (
    f"names beginning with {GUEST_PREFIX!r} are the names given to guests; choose another."
)


def is_guest_name(username: str) -> bool:
    """Whether ``username`` has the form of a guest's generated name."""
    return username.casefold().startswith(GUEST_PREFIX)


# A deleted account's name (``service.accounts``): DELETED_PREFIX and GUEST_NAME_LENGTH letters
# and digits, which nobody may choose either (a name cannot pass for a deleted account's).
DELETED_PREFIX = "deleted-"
DELETED_NAME_RESERVED = (
    f"names beginning with {DELETED_PREFIX!r} are the names given to deleted accounts; "
    "choose another."
)


# A built-in bot's name (``service.bots.bot_user``): ``bot-<level>-<n>``. Nobody may choose one
# (ignoring case, as usernames are compared): the contract promises that ``bot-basic-1`` and its
# kin are the server's bots, there to challenge, and a person registered as ``bot-strong-1`` on a
# new service received the challenges meant for the bot (and played as it, unmarked).
BOT_NAME = re.compile(rf"bot-(?:{'|'.join(BOT_LEVELS)})-[0-9]+", re.ASCII)
BOT_NAME_RESERVED = (
    "names of the form 'bot-<level>-<number>' are the names of the server's bots; choose another."
)


def is_bot_name(username: str) -> bool:
    """Whether ``username`` has the form of a built-in bot's name."""
    return BOT_NAME.fullmatch(username.casefold()) is not None


def reserved_name_refusal(username: str) -> str | None:
    """Why ``username`` may not be chosen (a guest's, a deleted account's or a built-in bot's
    form), or None."""
    if is_guest_name(username):
        return GUEST_NAME_RESERVED
    if username.casefold().startswith(DELETED_PREFIX):
        return DELETED_NAME_RESERVED
    if is_bot_name(username):
        return BOT_NAME_RESERVED
    return None


class Guest(models.Model):
    """A guest account: a generated username, a token and no password, made with one click
    (``POST /api/v1/players/guest/``). Claiming it (a username and a password) deletes this row
    and keeps the user, its games and its token. Games with a guest seated are not rated. An
    unclaimed guest is removed ``GUEST_DAYS`` after its creation (``service.guests``)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="guest"
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self) -> str:
        return f"Guest {self.user_id}"


class DeletedAccount(models.Model):
    """An account its player deleted (``POST /api/v1/players/me/delete/``, ``service.accounts``):
    the user row stays, renamed ``deleted-…``, without password, sessions or personal data,
    because the games it sat in keep their seats and logs; its profile is not found and it is
    off the leaderboard."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="deleted_account",
    )
    deleted_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Deleted account {self.user_id}"


class Block(models.Model):
    """``blocker`` keeps away from ``blocked`` (``POST /api/v1/players/{id}/block/``): the two are
    not seated together by quick match or a tournament's pairing (swiss, duplicate, arena) where
    another seating exists, take no seat at one table, are not invited to one rematch, cannot
    challenge or message each other, and each one's chat is hidden from the other. It works both
    ways, whoever blocked (``players.safety``)."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_made"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_received"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(
                condition=~models.Q(blocker=models.F("blocked")), name="block_not_self"
            ),
        ]
        indexes = [models.Index(fields=["blocked", "blocker"])]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


# Why a player is reported (``POST /api/v1/reports/``): the code, and what staff read.
REPORT_REASONS: dict[str, str] = {
    "abuse": "Insults, threats or harassment",
    "spam": "Spam or advertising",
    "cheating": "Cheating or playing together against others",
    "name": "An offensive username",
    "other": "Something else (see the note)",
}


class Report(models.Model):
    """A player's report of another: a reason from ``REPORT_REASONS``, an optional note, and the
    game and the seq it was about. Seen by staff (the admin, with the game's chat around it) and
    its author only."""

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made"
    )
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_received"
    )
    reason = models.CharField(max_length=16, choices=list(REPORT_REASONS.items()))
    note = models.CharField(max_length=500, blank=True)
    game = models.ForeignKey(
        "games.Game", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    seq = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    handled = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["reporter", "-created_at"])]

    def __str__(self) -> str:
        return f"Report {self.pk}: {self.reporter_id} on {self.reported_id} ({self.reason})"


class ChatSilence(models.Model):
    """Staff silenced ``player``'s chat until ``until`` (reactions included); of several rows, the
    furthest ``until`` counts (``players.safety.chat_silenced_until``): a shorter silence given
    later does not cut a longer one short. Set from the admin, usually from a report."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_silences"
    )
    until = models.DateTimeField()
    reason = models.CharField(max_length=200, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["player", "-until"])]

    def __str__(self) -> str:
        return f"Chat of {self.player_id} silenced until {self.until:%Y-%m-%d %H:%M}"


# --- sessions: access and refresh tokens (players.sessions) ------------------------------------


class Session(models.Model):
    """One sign-in of a player on one device: made by logging in, registering or playing as a
    guest, and carried on by rotating refresh tokens (``POST /api/v1/auth/refresh/``). Its tokens
    are ``AccessToken`` and ``RefreshToken`` rows, keyed by the SHA-256 of their secret (never
    the secret). Ended (logout, ``DELETE /players/me/sessions/{id}/``, a reused refresh token),
    it keeps its row with ``ended_at`` (and ``ended_why``; a password change ends every other
    session of the player) so a later use of one of its refresh tokens is told
    apart from an unknown one; its tokens authenticate nothing."""

    ENDED_LOGOUT = "logout"
    ENDED_REVOKED = "revoked"
    ENDED_REUSED = "reused"
    ENDED_PASSWORD = "password"
    ENDED_CHOICES = [
        (ENDED_LOGOUT, "Logged out"),
        (ENDED_REVOKED, "Ended from the session list"),
        (ENDED_REUSED, "A refresh token was used twice"),
        (ENDED_PASSWORD, "The password was changed on another session"),
    ]

    id = models.UUIDField(primary_key=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_sessions"
    )
    created_at = models.DateTimeField()
    last_used_at = models.DateTimeField()
    user_agent = models.CharField(max_length=256, blank=True)
    # The client's address truncated (an IPv4 /24, an IPv6 /48): enough to tell places apart.
    address = models.CharField(max_length=64, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    ended_why = models.CharField(max_length=16, choices=ENDED_CHOICES, blank=True)

    class Meta:
        indexes = [models.Index(fields=["user", "-last_used_at"], name="session_of_user")]

    def __str__(self) -> str:
        return f"Session {self.id} of {self.user_id}"


class AccessToken(models.Model):
    """A short-lived bearer token of a session (``UNO_ACCESS_TOKEN_SECONDS``)."""

    digest = models.CharField(max_length=64, primary_key=True)  # sha256 hex of the secret
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="access_tokens")
    expires_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"Access token of session {self.session_id}"


class RefreshToken(models.Model):
    """A single-use token of a session (``UNO_REFRESH_TOKEN_DAYS``): trading it in marks it
    ``used_at``; trading in a used one ends the whole session (reuse detection)."""

    digest = models.CharField(max_length=64, primary_key=True)  # sha256 hex of the secret
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="refresh_tokens")
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Refresh token of session {self.session_id}"


class BotAccount(models.Model):
    """A player's own account marked as played by their program (``POST
    /api/v1/players/me/bot-account/``, only before it has sat in a game; for good). Unlike a
    ``Bot`` the server plays nothing for it: the program signs in with the account's tokens and
    plays through the API (docs/bot-api.md). It is shown as ``"bot_account": true`` (profiles,
    seats, the leaderboard), rated as any player, its token is scoped to play
    (``players.scopes``), it joins public games only where bots are welcome, and a host may seat
    it by name."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="bot_account",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Bot account {self.user_id}"


class AccountMail(models.Model):
    """An account mail still to send (``players.mail``): written in the transaction of the
    request that asks for it and deleted once it is sent or given up, so a mail is lost neither
    to a broker that is down when it is asked for nor to a worker that stops while it sends. The
    token is not here: the sender makes it from the account as it is then."""

    # None for a reset asked for an address (players.mail.RESET_ASKED): the worker, not the
    # request, finds the accounts that have it, so the request's work tells nobody who does.
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", null=True
    )
    kind = models.CharField(max_length=16)
    address = models.CharField(max_length=254)
    base_url = models.TextField()  # where the link goes (players.recovery_apis.public_url)
    language = models.CharField(max_length=2)
    attempts = models.PositiveSmallIntegerField(default=0)
    # When the sweep sends it: a while after it was asked for (its own task has gone by then,
    # unless it was lost), or when a failed attempt's next one is due.
    due_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"Account mail {self.kind} for {self.player_id}"
