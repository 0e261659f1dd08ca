"""Routes of the players app, under /api/v1/."""

from django.urls import URLPattern, URLResolver, path

import unoservice.converters  # noqa: F401  (<id:…>)
from players.apis import (
    LeaderboardApi,
    PasswordChangeApi,
    PlayerBotAccountApi,
    PlayerByNameApi,
    PlayerDetailApi,
    PlayerGuestApi,
    PlayerMeApi,
    PlayerRegisterApi,
    SessionEndApi,
    SessionListApi,
    TokenIssueApi,
    TokenRefreshApi,
    TokenRevokeApi,
)
from players.recovery_apis import (
    EmailChangeApi,
    EmailConfirmApi,
    PasswordResetApi,
    PasswordResetRequestApi,
)

urlpatterns: list[URLPattern | URLResolver] = [
    path("players/", PlayerRegisterApi.as_view(), name="players-register"),
    path("players/guest/", PlayerGuestApi.as_view(), name="players-guest"),
    path("players/me/", PlayerMeApi.as_view(), name="players-me"),
    path("players/me/bot-account/", PlayerBotAccountApi.as_view(), name="players-me-bot-account"),
    path("players/me/password/", PasswordChangeApi.as_view(), name="players-me-password"),
    path("players/me/email/", EmailChangeApi.as_view(), name="players-me-email"),
    path("players/<int:player_id>/", PlayerDetailApi.as_view(), name="players-detail"),
    path("players/by-name/<str:username>/", PlayerByNameApi.as_view(), name="players-by-name"),
    path("leaderboard/", LeaderboardApi.as_view(), name="leaderboard"),
    path("auth/token/", TokenIssueApi.as_view(), name="auth-token"),
    path("auth/logout/", TokenRevokeApi.as_view(), name="auth-logout"),
    # an account's address and a forgotten password (players.recovery)
    path("auth/email/confirm/", EmailConfirmApi.as_view(), name="auth-email-confirm"),
    path("auth/password-reset/", PasswordResetRequestApi.as_view(), name="auth-password-reset"),
    path(
        "auth/password-reset/confirm/",
        PasswordResetApi.as_view(),
        name="auth-password-reset-confirm",
    ),
    # sessions (players.sessions)
    path("auth/refresh/", TokenRefreshApi.as_view(), name="auth-refresh"),
    path("players/me/sessions/", SessionListApi.as_view(), name="players-me-sessions"),
    path(
        "players/me/sessions/<id:session_id>/",
        SessionEndApi.as_view(),
        name="players-me-session",
    ),
]
