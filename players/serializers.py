"""Serializer pieces shared by the players APIs (each API nests its own input and output)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.validators import EmailValidator
from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from games.engine import limits
from games.engine.limits import GUEST_DAYS, VACATION_DAYS, VACATION_DAYS_PER_YEAR
from games.engine.shapes import BOT_LEVELS
from games.event_schema import ref
from players.mail import LANGUAGES
from players.models import GUEST_NAME_HELP, GUEST_PREFIX, REPORT_REASONS
from players.selectors import PlayerStats
from unoservice.api import StrictCharField, StrictIntegerField, StrictSerializer

GUEST_HELP = (
    "A guest account (no password, made with one click): its games are not rated; claimed with "
    f"a username and a password it becomes a full account; unclaimed, it is removed after "
    f"{GUEST_DAYS} days."
)
BOT_ACCOUNT_HELP = (
    "A bot account: a program plays it through the API (POST /api/v1/players/me/bot-account/, "
    "docs/bot-api.md); rated on the same leaderboard as everyone."
)
BOT_ACCOUNT_SHOWN = "Sent when true: " + BOT_ACCOUNT_HELP
USERNAME_MAX_LENGTH = 150
PASSWORD_MAX_LENGTH = 4096


def username_field(*, validate: bool) -> StrictCharField:
    """``validate``: apply Django's username rules (registration); logging in checks less."""
    return StrictCharField(
        max_length=USERNAME_MAX_LENGTH,
        validators=[UnicodeUsernameValidator()] if validate else [],
        help_text=(
            f"Up to 150 letters, digits and @/./+/-/_; not beginning with `{GUEST_PREFIX}` "
            "(guests' generated names) nor of the form `bot-<level>-<number>` (the server's "
            "bots' names): 400 `username_reserved`."
            if validate
            else ""
        ),
    )


def password_field(**extra: Any) -> StrictCharField:
    return StrictCharField(
        max_length=PASSWORD_MAX_LENGTH,
        trim_whitespace=False,
        write_only=True,
        style={"input_type": "password"},
        **extra,
    )


@extend_schema_serializer(component_name="PlayerStats")
class PlayerStatsSerializer(serializers.Serializer[PlayerStats]):
    games_played = serializers.IntegerField(help_text="Finished games sat in, won or lost.")
    games_won = serializers.IntegerField(help_text="Finished games won.")
    games_active = serializers.IntegerField(help_text="Games in progress sat in.")


@extend_schema_serializer(component_name="Rating")
class RatingSerializer(serializers.Serializer[dict[str, float]]):
    mu = serializers.FloatField(help_text="OpenSkill (Plackett-Luce) mean skill; 25 to start.")
    sigma = serializers.FloatField(help_text="The uncertainty of mu; 25/3 to start.")
    ordinal = serializers.FloatField(help_text="mu - 3 sigma: what the leaderboard orders by.")


@extend_schema_field(ref("PlayerRef"))
class PlayerRefField(serializers.JSONField):
    """The game view's ``PlayerRef`` component (``{id, username}``), shared, not a copy."""


@extend_schema_serializer(component_name="LeaderboardEntry")
class LeaderboardEntrySerializer(serializers.Serializer[dict[str, Any]]):
    rank = serializers.IntegerField(help_text="1 for the highest ordinal.")
    player = PlayerRefField()
    rating = RatingSerializer()
    games_played = serializers.IntegerField(help_text="Rated games: finished games sat in.")
    games_won = serializers.IntegerField(help_text="Rated games won.")
    bot = serializers.ChoiceField(
        choices=BOT_LEVELS, required=False, help_text="A bot's level (bots only)."
    )
    bot_account = serializers.BooleanField(required=False, help_text=BOT_ACCOUNT_SHOWN)


@extend_schema_serializer(component_name="LeaderboardPage")
class LeaderboardPageSerializer(serializers.Serializer[dict[str, Any]]):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = LeaderboardEntrySerializer(many=True)


class LeaderboardQuery(StrictSerializer):
    page = serializers.IntegerField(required=False, min_value=1, max_value=limits.MAX_INT)
    page_size = serializers.IntegerField(
        required=False,
        min_value=limits.LEADERBOARD_PAGE.low,
        max_value=limits.LEADERBOARD_PAGE.high,
    )


@extend_schema_serializer(component_name="Vacation")
class VacationSerializer(serializers.Serializer[dict[str, Any]]):
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField(help_text="When the caller's clocks run again.")
    days_left = serializers.FloatField(
        help_text=f"Vacation days left in this calendar year (UTC), of {VACATION_DAYS_PER_YEAR}."
    )


@extend_schema_serializer(component_name="VacationStart")
class VacationStartSerializer(StrictSerializer):
    days = StrictIntegerField(
        min_value=VACATION_DAYS.low,
        max_value=VACATION_DAYS.high,
        help_text=f"Days from now; a calendar year allows {VACATION_DAYS_PER_YEAR} in all.",
    )


class RatedFields(serializers.Serializer[dict[str, Any]]):
    """The rating part of a profile (and of a leaderboard entry)."""

    rating = RatingSerializer()
    games_played = serializers.IntegerField(help_text="Rated games: finished games sat in.")
    games_won = serializers.IntegerField(help_text="Rated games won.")


@extend_schema_serializer(component_name="PublicProfile")
class PublicProfileSerializer(RatedFields):
    id = serializers.IntegerField()
    username = serializers.CharField()
    date_joined = serializers.DateTimeField()
    stats = PlayerStatsSerializer()
    bot = serializers.ChoiceField(
        choices=BOT_LEVELS, required=False, help_text="A bot's level (bots only)."
    )
    guest = serializers.BooleanField(help_text=GUEST_HELP)
    bot_account = serializers.BooleanField(help_text=BOT_ACCOUNT_HELP)


@extend_schema_serializer(component_name="OwnProfile")
class OwnProfileSerializer(RatedFields):
    id = serializers.IntegerField()
    username = serializers.CharField()
    date_joined = serializers.DateTimeField()
    is_staff = serializers.BooleanField()
    stats = PlayerStatsSerializer()
    guest = serializers.BooleanField(help_text=GUEST_HELP)
    bot_account = serializers.BooleanField(help_text=BOT_ACCOUNT_HELP)
    email = serializers.CharField(
        help_text=(
            "The account's confirmed e-mail address (POST /api/v1/players/me/email/), where a "
            "forgotten password's reset is sent; '' when none. Only its owner sees it."
        )
    )
    on_vacation_until = serializers.DateTimeField(
        allow_null=True,
        help_text=(
            "The end of the caller's running vacation (`POST /api/v1/players/me/vacation/`), "
            "or null when none runs."
        ),
    )


# --- sessions (players.sessions) ----------------------------------------------------------------

ACCESS_HELP = (
    "The access token: send it as `Authorization: Token <access>`. It expires at "
    "`access_expires_at` (401 `token_expired` after): trade `refresh` for a new pair then."
)


class PairFields(serializers.Serializer[dict[str, Any]]):
    """A session's new pair of tokens, as a sign-in, a registration or a refresh answers it."""

    access = serializers.CharField(help_text=ACCESS_HELP)
    access_expires_at = serializers.DateTimeField()
    refresh = serializers.CharField(
        help_text=(
            "The refresh token: good once (`POST /api/v1/auth/refresh/`), until "
            "`refresh_expires_at`. Used a second time it ends its session (401 `token_reused`)."
        )
    )
    refresh_expires_at = serializers.DateTimeField()
    session = serializers.UUIDField(help_text="The session's id (`GET /players/me/sessions/`).")


def pair_body(pair: Any) -> dict[str, Any]:
    """The fields of ``PairFields`` (and the old ``token``, the same as ``access``)."""
    return {
        "token": pair.access,
        "access": pair.access,
        "access_expires_at": pair.access_expires_at,
        "refresh": pair.refresh,
        "refresh_expires_at": pair.refresh_expires_at,
        "session": pair.session.pk,
    }


TOKEN_HELP = "The same as `access`, for clients written before sessions."


@extend_schema_serializer(component_name="GuestAccount")
class GuestAccountSerializer(PairFields):
    id = serializers.IntegerField()
    username = serializers.CharField(help_text=f"Generated: {GUEST_NAME_HELP}.")
    token = serializers.CharField(
        help_text=(
            "The same as `access`. A guest has no password: the refresh token is the account, "
            "so keep it."
        )
    )
    guest = serializers.BooleanField(help_text="Always true here.")


@extend_schema_serializer(component_name="Session")
class SessionSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.UUIDField()
    created = serializers.DateTimeField(help_text="When it signed in.")
    last_used = serializers.DateTimeField(help_text="Its last call (to the minute) or refresh.")
    user_agent = serializers.CharField(help_text="The User-Agent it signed in with ('' if none).")
    address = serializers.CharField(
        help_text="The network it was last seen from: an IPv4 /24, an IPv6 /48 ('' if unknown)."
    )
    current = serializers.BooleanField(help_text="The session of the token making this call.")


@extend_schema_serializer(component_name="Refresh")
class RefreshSerializer(StrictSerializer):
    refresh = StrictCharField(max_length=128, help_text="The refresh token of the last pair.")


class LogoutSerializer(StrictSerializer):
    refresh = StrictCharField(
        max_length=128,
        required=False,
        help_text=(
            "The session's refresh token: ends its session with no Authorization header (an "
            "access token that expired needs no refresh first)."
        ),
    )


@extend_schema_serializer(component_name="Claim")
class ClaimSerializer(StrictSerializer):
    username = username_field(validate=True)
    password = password_field()


@extend_schema_serializer(component_name="PasswordChange")
class PasswordChangeSerializer(StrictSerializer):
    current_password = password_field()
    new_password = password_field()


@extend_schema_serializer(component_name="PasswordChanged")
class PasswordChangedSerializer(serializers.Serializer[dict[str, int]]):
    sessions_ended = serializers.IntegerField(
        help_text="The caller's other sessions, ended by the change (their tokens are refused)."
    )


EMAIL_MAX_LENGTH = 254  # RFC 5321's longest path: Django's EmailField's too


def email_field(**extra: Any) -> StrictCharField:
    return StrictCharField(
        max_length=EMAIL_MAX_LENGTH, validators=[EmailValidator()], trim_whitespace=True, **extra
    )


def language_field() -> serializers.ChoiceField:
    return serializers.ChoiceField(
        choices=LANGUAGES,
        default=LANGUAGES[0],
        help_text="The mail's language (the client's): English or Portuguese.",
    )


def mail_token_field() -> StrictCharField:
    return StrictCharField(max_length=512, help_text="The token of the mail's link (its end).")


@extend_schema_serializer(component_name="EmailChange")
class EmailChangeSerializer(StrictSerializer):
    email = email_field(
        allow_blank=True,
        help_text="The new address, confirmed by the link mailed to it; '' removes the address.",
    )
    # Blank is taken (and refused as a wrong password): a guest hears that it has none.
    password = password_field(allow_blank=True, help_text="The account's password.")
    language = language_field()


@extend_schema_serializer(component_name="EmailState")
class EmailStateSerializer(serializers.Serializer[dict[str, Any]]):
    email = serializers.CharField(help_text="The confirmed address now ('' when none).")
    pending = serializers.CharField(
        allow_null=True,
        help_text="The address the confirmation was mailed to (null when it was removed).",
    )


@extend_schema_serializer(component_name="EmailConfirm")
class EmailConfirmSerializer(StrictSerializer):
    token = mail_token_field()


@extend_schema_serializer(component_name="EmailConfirmed")
class EmailConfirmedSerializer(serializers.Serializer[dict[str, str]]):
    email = serializers.CharField(help_text="The account's confirmed address from now on.")
    username = serializers.CharField(help_text="The account's name.")


@extend_schema_serializer(component_name="PasswordResetRequest")
class PasswordResetRequestSerializer(StrictSerializer):
    email = email_field(help_text="The confirmed address of the account.")
    language = language_field()


@extend_schema_serializer(component_name="PasswordReset")
class PasswordResetSerializer(StrictSerializer):
    token = mail_token_field()
    new_password = password_field(help_text="The new password (the registration's rules).")


@extend_schema_serializer(component_name="PasswordResetDone")
class PasswordResetDoneSerializer(serializers.Serializer[dict[str, Any]]):
    username = serializers.CharField(help_text="The account whose password was set: sign in.")
    sessions_ended = serializers.IntegerField(
        help_text="The account's sessions, all ended by the reset (their tokens are refused)."
    )


@extend_schema_serializer(component_name="AccountDelete")
class AccountDeleteSerializer(StrictSerializer):
    password = password_field(
        required=False,
        allow_blank=True,
        default="",
        help_text="The account's password; a guest, who has none, leaves it out.",
    )


@extend_schema_serializer(component_name="Credentials")
class CredentialsSerializer(StrictSerializer):
    """A sign-in: the account's name and password (an unknown field is refused)."""

    username = username_field(validate=False)
    password = password_field()


@extend_schema_serializer(component_name="AuthToken")
class AuthTokenSerializer(PairFields):
    token = serializers.CharField(help_text=TOKEN_HELP)


@extend_schema_serializer(component_name="Registration")
class RegistrationSerializer(StrictSerializer):
    """A new account (an unknown field is refused)."""

    username = username_field(validate=True)
    password = password_field()
    email = email_field(
        required=False,
        allow_blank=True,
        default="",
        help_text=(
            "Optional: an address to confirm, where a forgotten password's reset goes. It is "
            "mailed a link, and is the account's once the link is opened (as "
            "POST /api/v1/players/me/email/ does)."
        ),
    )
    language = language_field()


@extend_schema_serializer(component_name="RegisteredPlayer")
class RegisteredPlayerSerializer(PairFields):
    id = serializers.IntegerField()
    username = serializers.CharField()
    token = serializers.CharField(help_text=TOKEN_HELP)


# --- blocks and reports (players.safety) -------------------------------------------------------


class BlockSerializer(serializers.Serializer[dict[str, Any]]):
    player = PlayerRefField(help_text="The player blocked.")
    created_at = serializers.DateTimeField()


class BlockListSerializer(serializers.Serializer[dict[str, Any]]):
    blocks = BlockSerializer(many=True, help_text="Newest first.")


class ReportCreateSerializer(StrictSerializer):
    player = StrictIntegerField(help_text="The id of the player reported.")
    reason = serializers.ChoiceField(choices=list(REPORT_REASONS.items()))
    note = StrictCharField(required=False, allow_blank=True, max_length=500, default="")
    game = serializers.UUIDField(required=False, help_text="The game it happened in.")
    seq = StrictIntegerField(required=False, min_value=1, help_text="The event it was at.")


class ReportSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    player = PlayerRefField(help_text="The player reported.")
    reason = serializers.ChoiceField(choices=list(REPORT_REASONS.items()))
    note = serializers.CharField()
    game = serializers.UUIDField(allow_null=True)
    seq = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()
    handled = serializers.BooleanField(help_text="Staff have dealt with it.")


class ReportListSerializer(serializers.Serializer[dict[str, Any]]):
    reports = ReportSerializer(many=True, help_text="The caller's own, newest first.")
