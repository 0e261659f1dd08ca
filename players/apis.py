"""The players HTTP API: registration, tokens, profiles. One thin APIView per operation."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.authentication import BaseAuthentication, SessionAuthentication
from rest_framework.exceptions import NotAuthenticated, Throttled
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle

from games.engine import limits
from games.engine.limits import GUEST_DAYS
from players.authentication import AccessTokenAuthentication
from players.models import GUEST_PREFIX, AccessToken, Rating
from players.ratings import rating_of, shown
from players.recovery import email_confirmation
from players.recovery_apis import public_url
from players.selectors import leaderboard, player_get, player_named, player_stats
from players.serializers import (
    AuthTokenSerializer,
    CredentialsSerializer,
    GuestAccountSerializer,
    LeaderboardEntrySerializer,
    LeaderboardPageSerializer,
    LeaderboardQuery,
    LogoutSerializer,
    OwnProfileSerializer,
    PasswordChangedSerializer,
    PasswordChangeSerializer,
    PublicProfileSerializer,
    RefreshSerializer,
    RegisteredPlayerSerializer,
    RegistrationSerializer,
    SessionSerializer,
    pair_body,
)
from players.services import (
    bot_account_mark,
    guest_create,
    is_bot_account,
    is_guest,
    password_change,
    player_register,
    token_issue,
    token_revoke,
    vacation_current,
)
from players.sessions import (
    session_end,
    session_end_by_refresh,
    session_refresh,
    session_start,
    sessions_of,
)
from unoservice import api
from unoservice.api import APIView
from unoservice.errors import DomainError
from unoservice.pages import page_response
from unoservice.schema import UNAUTHORIZED, error_response, errors_for
from unoservice.throttling import signin_failures

TAGS = ["players"]
EXAMPLE_STATS = {"games_played": 12, "games_won": 5, "games_active": 2}
EXAMPLE_JOINED = "2026-11-29T13:00:00Z"
EXAMPLE_RATING = {"mu": 27.1, "sigma": 7.2, "ordinal": 5.5}
EXAMPLE_RATED = {"rating": EXAMPLE_RATING, "games_played": 12, "games_won": 5}
EXAMPLE_ACCESS = "uat_3q2-7wEvH8uC0Hn1Yb9kQ5mXr4tLs6dZp0aVf2jNc8o"
EXAMPLE_PAIR = {
    "token": EXAMPLE_ACCESS,
    "access": EXAMPLE_ACCESS,
    "access_expires_at": "2026-11-29T14:00:00Z",
    "refresh": "urt_Jk4m9Qx2Vb7Lp0Ws5Rt8Yc3Nf6Hd1Ge4Ua9Zo2Ik7Em",
    "refresh_expires_at": "2026-12-29T13:00:00Z",
    "session": "5b0c7e52-3f7e-4d8a-9a53-6d1f2c8e4b10",
}


def _device(request: Request) -> dict[str, Any]:
    """Who is signing in, for the session list: the User-Agent and the client's address (past
    ``NUM_PROXIES`` proxies, as throttling tells callers apart; truncated by the session)."""
    return {
        "user_agent": request.headers.get("User-Agent", ""),
        "address": BaseThrottle().get_ident(request),
    }


def _rated(rating: Any) -> dict[str, Any]:
    """A rating (``players.ratings.Shown``) as the profile and the leaderboard show it."""
    return {
        "rating": {"mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.ordinal},
        "games_played": rating.games_played,
        "games_won": rating.games_won,
    }


def _profile(player: User, **extra: Any) -> dict[str, Any]:
    return {
        "id": player.pk,
        "username": player.username,
        "date_joined": player.date_joined,
        "stats": player_stats(player=player),
        **_rated(rating_of(player)),
        **({"bot": player.bot.level} if hasattr(player, "bot") else {}),
        "guest": is_guest(player),
        "bot_account": is_bot_account(player),
        **extra,
    }


def own_profile(player: User) -> dict[str, Any]:
    """The caller's own profile: the public one, and what only they see."""
    running = vacation_current(player, timezone.now())
    return _profile(
        player,
        is_staff=player.is_staff,
        email=player.email,
        on_vacation_until=None if running is None else running.ends_at,
    )


class PlayerRegisterApi(APIView):
    authentication_classes: list[Any] = []  # a stale token must not stop a registration
    permission_classes = [AllowAny]
    throttle_scope = "registration"  # rates: settings.UNO_THROTTLE_RATES

    @extend_schema(
        operation_id="players_register",
        summary="Register a player",
        description=(
            "Open to anyone. The password must pass the server's password validators. Answers "
            "the new player signed in: a session's pair of tokens, as `auth/token/` does. With "
            "`email`, that address is mailed a link that makes it the account's (in "
            "`language`), as `POST /api/v1/players/me/email/` does."
        ),
        tags=TAGS,
        auth=[],
        request=RegistrationSerializer,
        responses={
            201: RegisteredPlayerSerializer,
            400: error_response(
                "Malformed body, a username Django refuses, or a password the validators refuse "
                f"(`invalid`); a username of a guest's form, beginning with `{GUEST_PREFIX}`, "
                "or of a built-in bot's, `bot-<level>-<number>` (`username_reserved`).",
                "invalid",
                "username_reserved",
            ),
            409: error_response("The username is taken (ignoring case).", "username_taken"),
        },
        examples=[
            OpenApiExample(
                "Register",
                value={"username": "alice", "password": "correct-horse-battery"},
                request_only=True,
            ),
            OpenApiExample(
                "Registered",
                value={"id": 7, "username": "alice", **EXAMPLE_PAIR},
                response_only=True,
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        data = api.validated(RegistrationSerializer, request.data)
        email, language = data.pop("email"), data.pop("language")
        base_url = public_url(request) if email else ""  # a forged Host: 400 before the account
        player = player_register(**data)
        if email:
            email_confirmation(user=player, email=email, base_url=base_url, language=language)
        pair = session_start(user=player, **_device(request))
        body = {"id": player.pk, "username": player.username, **pair_body(pair)}
        return Response(RegisteredPlayerSerializer(body).data, status=status.HTTP_201_CREATED)


class PlayerGuestApi(APIView):
    authentication_classes: list[Any] = []  # a stale token must not stop a new guest
    permission_classes = [AllowAny]
    throttle_scope = "registration"  # per address, with registrations: a new account either way

    @extend_schema(
        operation_id="players_guest",
        summary="Play as a guest",
        description=(
            "Open to anyone, with no body: a guest account with a generated username and no "
            "password, and its session's pair of tokens. A guest plays everything a player "
            "does, but the games it sits in are not rated. Claim it "
            "(`POST /api/v1/players/me/claim/`) to keep it: an unclaimed guest is removed "
            f"after {GUEST_DAYS} days with its waiting games (its finished games stay)."
        ),
        tags=TAGS,
        auth=[],
        request=None,
        responses={201: GuestAccountSerializer, **errors_for("throttled")},
        examples=[
            OpenApiExample(
                "Guest",
                value={"id": 9, "username": "guest-k7p2m9xq", **EXAMPLE_PAIR, "guest": True},
                response_only=True,
            )
        ],
    )
    def post(self, request: Request) -> Response:
        user, pair = guest_create(**_device(request))
        body = {"id": user.pk, "username": user.username, **pair_body(pair), "guest": True}
        return Response(GuestAccountSerializer(body).data, status=status.HTTP_201_CREATED)


class PasswordChangeApi(APIView):
    """Open to a bot account's token too: the current password, not the token, makes the change
    (``players.scopes``)."""

    throttle_scope = "token"  # a guess at the current password is a guess at a sign-in

    @extend_schema(
        operation_id="players_me_password",
        summary="Change the caller's password",
        description=(
            "The caller's current password, and the new one (the registration's rules: 400 "
            "`invalid`, its `fields` under `new_password`). Every other session of the caller "
            "ends (`sessions_ended`: their access and refresh tokens are refused from now on, "
            "their streams close); the session making the call goes on. A wrong current "
            "password is 400 `invalid_credentials` and changes nothing. A guest has no "
            "password: 409 `guest_account` (claim the account). A bot account's owner may change "
            "it with any of its tokens (the password makes the change; the program's other "
            "sessions end)."
        ),
        tags=TAGS,
        request=PasswordChangeSerializer,
        responses={
            200: PasswordChangedSerializer,
            **errors_for(
                "invalid",
                "invalid_credentials",
                "not_authenticated",
                "guest_account",
                "throttled",
            ),
        },
        examples=[
            OpenApiExample(
                "Change",
                value={
                    "current_password": "correct-horse-battery",
                    "new_password": "staple-lantern-orbit",
                },
                request_only=True,
            ),
            OpenApiExample("Changed", value={"sessions_ended": 2}, response_only=True),
        ],
    )
    def post(self, request: Request) -> Response:
        data = api.validated(PasswordChangeSerializer, request.data)
        ended = password_change(user=api.caller(request), auth=request.auth, **data)
        return Response(PasswordChangedSerializer({"sessions_ended": ended}).data)


class PlayerBotAccountApi(APIView):
    @extend_schema(
        operation_id="players_me_bot_account",
        summary="Make the caller's account a bot account (its program plays it)",
        description=(
            "For good, and only before the account's first game (a seat in any game, waiting ones "
            "too: 409 `account_has_played`; register a new account for the program); not for a "
            "guest (409 `guest_account`: claim it first); not while the account is entered (not "
            "withdrawn) in a tournament not over whose host does not allow bots (409 "
            "`in_tournament_without_bots`: withdraw first). Asked again, it changes nothing and "
            "answers the same. A bot account is shown as one (`bot_account: true` in its "
            "profile, its seats and its leaderboard row), is rated like anyone, and plays through "
            "the API (docs/bot-api.md): its tokens are scoped to play (403 `bot_account_scope` "
            "on the account changes), it takes a seat in a public game itself only where "
            "`bots_welcome` is set (quick match: send `bots_welcome: true`), a host seats it by "
            "its username (`bot_accounts` of `POST /api/v1/games/`), and it answers its "
            "challenges itself. Answers the caller's profile."
        ),
        tags=TAGS,
        request=None,
        responses={
            200: OwnProfileSerializer,
            **errors_for(
                "not_authenticated",
                "account_has_played",
                "guest_account",
                "in_tournament_without_bots",
            ),
        },
    )
    def post(self, request: Request) -> Response:
        player = api.caller(request)
        bot_account_mark(user=player)
        return Response(OwnProfileSerializer(own_profile(player)).data)


class TokenIssueApi(APIView):
    authentication_classes: list[Any] = []  # a revoked token must not stop getting a new one
    permission_classes = [AllowAny]
    throttle_scope = "token"  # rates: settings.UNO_THROTTLE_RATES

    @extend_schema(
        operation_id="auth_token",
        summary="Sign in: a new session",
        description=(
            "Trade a username and password for a new session (one per device) and its pair: "
            "an access token to send as `Authorization: Token <access>` until "
            "`access_expires_at`, and a single-use refresh token for the next pair "
            "(`POST /api/v1/auth/refresh/`). `token` is `access` again, for older clients. "
            "Besides the count per client address, failed sign-ins are counted per username "
            "(any case, from any address): past `UNO_THROTTLE_SIGNIN_FAILURES` in its window "
            "(10 in 15 minutes), that username is refused with 429 `throttled` and "
            "`Retry-After`, its right password too, until the oldest failure leaves the window."
        ),
        tags=TAGS,
        auth=[],
        request=CredentialsSerializer,
        responses={
            200: AuthTokenSerializer,
            400: error_response(
                "Malformed body, or a wrong username or password.",
                "invalid",
                "invalid_credentials",
            ),
        },
        examples=[
            OpenApiExample(
                "Log in",
                value={"username": "alice", "password": "correct-horse-battery"},
                request_only=True,
            ),
            OpenApiExample("Signed in", value=EXAMPLE_PAIR, response_only=True),
        ],
    )
    def post(self, request: Request) -> Response:
        data = api.validated(CredentialsSerializer, request.data)
        # Before the password is checked, and whatever it is: a refusal that let the right one
        # through would tell a guesser when they found it, which is what the limit withholds.
        failures = signin_failures(data["username"])
        wait = failures.begin()
        if wait is not None:
            raise Throttled(wait, "Too many failed sign-ins for this username.")
        failed = False
        try:
            pair = token_issue(**data, **_device(request))
        except DomainError as exc:
            failed = exc.code == "invalid_credentials"
            raise
        finally:
            # A sign-in that succeeds is not counted (a player's many devices and bot programs
            # sign in often); one that fails for another reason (the database) is no guess.
            if not failed:
                failures.succeeded()
        return Response(AuthTokenSerializer(pair_body(pair)).data)


class TokenRevokeApi(APIView):
    """Signs out with what a client still holds: its access token, expired or not, or its
    refresh token in the body, with no Authorization."""

    permission_classes = [AllowAny]  # ``post`` asks for a caller or a refresh token
    # Not throttled, as before: a token is 32 random bytes, no guess finds one, and a shared
    # address's limit would keep its players from signing out.

    def get_authenticators(self) -> list[BaseAuthentication]:
        # An access token that has expired signs out too (its session's newest): it ends the
        # session it names, which is all this view does (``AccessTokenAuthentication``).
        return [AccessTokenAuthentication(to_log_out=True), SessionAuthentication()]

    @extend_schema(
        operation_id="auth_logout",
        summary="Log out",
        description=(
            "End the caller's session: its access and refresh tokens authenticate nothing "
            "afterwards (the player's other sessions go on). The access token may have "
            "expired (the session's newest still ends it; no refresh first); or send no "
            "Authorization and the session's `refresh` token in the body, which ends its "
            "session (a spent one ends it as a reuse would; one of a session ended already: "
            "204). An unknown refresh token, or one of another player than the caller's, is "
            "401 `not_authenticated`. With an old token (`UNO_LEGACY_TOKENS`), delete it."
        ),
        tags=TAGS,
        request=LogoutSerializer,
        responses={204: None, **errors_for("invalid", "not_authenticated")},
        examples=[
            OpenApiExample(
                "With the refresh token",
                value={"refresh": EXAMPLE_PAIR["refresh"]},
                request_only=True,
            ),
            OpenApiExample("Logged out", value=None, response_only=True, status_codes=[204]),
        ],
    )
    def post(self, request: Request) -> Response:
        data = api.validated(LogoutSerializer, request.data)
        caller = request.user if request.user.is_authenticated else None
        if "refresh" in data:
            session_end_by_refresh(refresh=data["refresh"], user=caller)
        elif caller is None:
            raise NotAuthenticated()
        else:
            token_revoke(user=api.caller(request), auth=request.auth)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PlayerMeApi(APIView):
    @extend_schema(
        operation_id="players_me",
        summary="The caller's profile",
        description="The caller's profile and game statistics.",
        tags=TAGS,
        responses={200: OwnProfileSerializer, **UNAUTHORIZED},
        examples=[
            OpenApiExample(
                "Profile",
                value={
                    "id": 7,
                    "username": "alice",
                    "date_joined": EXAMPLE_JOINED,
                    "is_staff": False,
                    "stats": EXAMPLE_STATS,
                    **EXAMPLE_RATED,
                },
                response_only=True,
            )
        ],
    )
    def get(self, request: Request) -> Response:
        player = api.caller(request)
        return Response(OwnProfileSerializer(own_profile(player)).data)


class PlayerDetailApi(APIView):
    @extend_schema(
        operation_id="players_retrieve",
        summary="A player's public profile",
        description="Any player's public profile and game statistics.",
        tags=TAGS,
        responses={
            200: PublicProfileSerializer,
            **UNAUTHORIZED,
            404: error_response("No such player.", "not_found"),
        },
        examples=[
            OpenApiExample(
                "Profile",
                value={
                    "id": 8,
                    "username": "bob",
                    "date_joined": EXAMPLE_JOINED,
                    "stats": EXAMPLE_STATS,
                    **EXAMPLE_RATED,
                },
                response_only=True,
            )
        ],
    )
    def get(self, request: Request, player_id: int) -> Response:
        return Response(PublicProfileSerializer(_profile(player_get(player_id=player_id))).data)


class PlayerByNameApi(APIView):
    @extend_schema(
        operation_id="players_by_name",
        summary="A player's public profile, by username",
        description=(
            "The profile `players/{id}/` answers, found by the username (ignoring case): a link "
            "`#/players/<name>` to any player opens, where a client knew only the names of its "
            "own games and of the leaderboard. 404 `not_found` for no such player."
        ),
        tags=TAGS,
        responses={
            200: PublicProfileSerializer,
            **UNAUTHORIZED,
            404: error_response("No player is named 'nobody'.", "not_found"),
        },
    )
    def get(self, request: Request, username: str) -> Response:
        player = player_named(username=username)
        return Response(PublicProfileSerializer(_profile(player)).data)


def _entry(rank: int, row: Rating) -> dict[str, Any]:
    user = row.user
    return {
        "rank": rank,
        "player": {"id": user.pk, "username": user.username},
        **_rated(shown(row)),
        **({"bot": user.bot.level} if hasattr(user, "bot") else {}),
        **({"bot_account": True} if hasattr(user, "bot_account") else {}),
    }


class LeaderboardApi(APIView):
    @extend_schema(
        operation_id="leaderboard",
        summary="Players by rating",
        description=(
            "Every player with a finished game, by the ordinal of their OpenSkill rating "
            "(mu - 3 sigma), highest first; bots too, marked with their level."
        ),
        tags=TAGS,
        parameters=[LeaderboardQuery],
        responses={
            200: LeaderboardPageSerializer,
            **errors_for("invalid", "not_authenticated", "not_found"),
        },
        examples=[
            OpenApiExample(
                "The top",
                value={
                    "count": 1,
                    "next": None,
                    "previous": None,
                    "results": [
                        {"rank": 1, "player": {"id": 8, "username": "bob"}, **EXAMPLE_RATED}
                    ],
                },
                response_only=True,
            )
        ],
    )
    def get(self, request: Request) -> Response:
        api.query(LeaderboardQuery, request)
        return page_response(
            request,
            self,
            leaderboard(),
            lambda rank, row: LeaderboardEntrySerializer(_entry(rank, row)).data,
            size=limits.LEADERBOARD_PAGE,
            default=limits.LEADERBOARD_PAGE_DEFAULT,
        )


# --- sessions -------------------------------------------------------------------------------------


class TokenRefreshApi(APIView):
    authentication_classes: list[Any] = []  # the access token may well have expired
    permission_classes = [AllowAny]
    throttle_scope = "token"  # rates: settings.UNO_THROTTLE_RATES

    @extend_schema(
        operation_id="auth_refresh",
        summary="Refresh: the session's next pair",
        description=(
            "Trade the session's refresh token for a new pair (access and refresh). A refresh "
            "token is good once: sent again, it ends its whole session (every token of it: "
            "another party may hold it) and answers 401 `token_reused`. An access token issued "
            "before stays good until its own `access_expires_at`."
        ),
        tags=TAGS,
        auth=[],
        request=RefreshSerializer,
        responses={
            200: AuthTokenSerializer,
            **errors_for("invalid", "not_authenticated", "token_reused"),
        },
        examples=[
            OpenApiExample(
                "Refresh", value={"refresh": EXAMPLE_PAIR["refresh"]}, request_only=True
            ),
            OpenApiExample("New pair", value=EXAMPLE_PAIR, response_only=True),
        ],
    )
    def post(self, request: Request) -> Response:
        data = api.validated(RefreshSerializer, request.data)
        pair = session_refresh(refresh=data["refresh"], address=_device(request)["address"])
        return Response(AuthTokenSerializer(pair_body(pair)).data)


def _current_session(request: Request) -> Any:
    return request.auth.session_id if isinstance(request.auth, AccessToken) else None


def session_list(request: Request) -> list[Any]:
    """The caller's open sessions as ``GET players/me/sessions/`` lists them."""
    current = _current_session(request)
    return [
        SessionSerializer(
            {
                "id": row.pk,
                "created": row.created_at,
                "last_used": row.last_used_at,
                "user_agent": row.user_agent,
                "address": row.address,
                "current": row.pk == current,
            }
        ).data
        for row in sessions_of(api.caller(request))
    ]


EXAMPLE_SESSION = {
    "id": EXAMPLE_PAIR["session"],
    "created": "2026-11-29T13:00:00Z",
    "last_used": "2026-11-29T13:42:00Z",
    "user_agent": "Mozilla/5.0 (Android 15; Mobile) Firefox/140.0",
    "address": "203.0.113.0/24",
    "current": True,
}


class SessionListApi(APIView):
    @extend_schema(
        operation_id="players_me_sessions",
        summary="The caller's sessions",
        description=(
            "Every open session of the caller (one per sign-in: a device, a browser), the most "
            "recently used first; `current` marks the one making this call. Not paginated: "
            "sessions unused for the refresh lifetime lapse."
        ),
        tags=TAGS,
        responses={200: SessionSerializer(many=True), **UNAUTHORIZED},
        examples=[OpenApiExample("Sessions", value=[EXAMPLE_SESSION], response_only=True)],
    )
    def get(self, request: Request) -> Response:
        return Response(session_list(request))


class SessionEndApi(APIView):
    @extend_schema(
        operation_id="players_me_sessions_end",
        summary="End a session",
        description=(
            "End one of the caller's sessions (the current one too: that is logging out): its "
            "access and refresh tokens authenticate nothing afterwards. 404 for a session that "
            "is not the caller's, or is ended already."
        ),
        tags=TAGS,
        request=None,
        responses={204: None, **errors_for("not_authenticated", "not_found")},
        examples=[OpenApiExample("Ended", value=None, response_only=True, status_codes=[204])],
    )
    def delete(self, request: Request, session_id: Any) -> Response:
        session_end(user=api.caller(request), session_id=session_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
