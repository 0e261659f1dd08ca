"""The routes of the application layer's views, under /api/v1/: the games, their streams, the
inbox and vacations (the apps route the rest: ``players.urls``, ``notifications.urls``)."""

from django.urls import URLPattern, URLResolver, path

import unoservice.converters  # noqa: F401  (<id:…>)
from service.apis import (
    challenges,
    chat,
    export,
    games,
    notifications,
    players,
    safety,
    streams,
    tournaments,
)

urlpatterns: list[URLPattern | URLResolver] = [
    path("games/", games.GameListApi.as_view(), name="games"),
    path("games/join-by-code/", games.GameJoinByCodeApi.as_view(), name="games-join-by-code"),
    path("matchmaking/", games.MatchmakingApi.as_view(), name="matchmaking"),
    path("games/<str:game_id>/", games.GameDetailApi.as_view(), name="game"),
    path("games/<str:game_id>/join/", games.GameJoinApi.as_view(), name="game-join"),
    path("games/<str:game_id>/bots/", games.GameBotsApi.as_view(), name="game-bots"),
    path("games/<str:game_id>/leave/", games.GameLeaveApi.as_view(), name="game-leave"),
    path("games/<str:game_id>/start/", games.GameStartApi.as_view(), name="game-start"),
    path("games/<str:game_id>/resign/", games.GameResignApi.as_view(), name="game-resign"),
    path("games/<str:game_id>/actions/", games.GameActionsApi.as_view(), name="game-actions"),
    path("games/<str:game_id>/events/", games.GameEventsApi.as_view(), name="game-events"),
    path("games/<str:game_id>/replay/", games.GameReplayApi.as_view(), name="game-replay"),
    path("games/<str:game_id>/rematch/", games.GameRematchApi.as_view(), name="game-rematch"),
    path("games/<str:game_id>/export/", games.GameExportApi.as_view(), name="game-export"),
    path("games/<str:game_id>/chat/", chat.GameChatApi.as_view(), name="game-chat"),
    path("games/<str:game_id>/chat/mute/", chat.GameChatMuteApi.as_view(), name="game-chat-mute"),
    path("games/<str:game_id>/stream/", streams.GameStreamApi.as_view(), name="game-stream"),
    path("players/me/stream/", streams.PlayerStreamApi.as_view(), name="players-me-stream"),
    path("auth/stream-ticket/", streams.StreamTicketApi.as_view(), name="auth-stream-ticket"),
    path("players/me/vacation/", players.PlayerVacationApi.as_view(), name="players-vacation"),
    path("players/me/delete/", players.PlayerDeleteApi.as_view(), name="players-me-delete"),
    path("players/me/claim/", players.PlayerClaimApi.as_view(), name="players-me-claim"),
    path("players/me/export/", export.PlayerExportApi.as_view(), name="players-me-export"),
    path("notifications/", notifications.NotificationListApi.as_view(), name="notifications"),
    path("players/<int:player_id>/block/", safety.PlayerBlockApi.as_view(), name="players-block"),
    path("players/me/blocks/", safety.PlayerBlockListApi.as_view(), name="players-me-blocks"),
    path("reports/", safety.ReportListApi.as_view(), name="reports"),
    path("challenges/", challenges.ChallengeListApi.as_view(), name="challenges"),
    path(
        "challenges/<id:challenge_id>/accept/",
        challenges.ChallengeAcceptApi.as_view(),
        name="challenge-accept",
    ),
    path(
        "challenges/<id:challenge_id>/decline/",
        challenges.ChallengeDeclineApi.as_view(),
        name="challenge-decline",
    ),
    path(
        "challenges/<id:challenge_id>/cancel/",
        challenges.ChallengeCancelApi.as_view(),
        name="challenge-cancel",
    ),
    path("tournaments/", tournaments.TournamentListApi.as_view(), name="tournaments"),
    path(
        "tournaments/<str:tournament_id>/",
        tournaments.TournamentDetailApi.as_view(),
        name="tournament",
    ),
    path(
        "tournaments/<str:tournament_id>/join/",
        tournaments.TournamentJoinApi.as_view(),
        name="tournament-join",
    ),
    path(
        "tournaments/<str:tournament_id>/withdraw/",
        tournaments.TournamentWithdrawApi.as_view(),
        name="tournament-withdraw",
    ),
    path(
        "tournaments/<str:tournament_id>/stream/",
        tournaments.TournamentStreamApi.as_view(),
        name="tournament-stream",
    ),
]
