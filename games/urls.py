from django.urls import URLPattern, URLResolver, path

from games import apis

urlpatterns: list[URLPattern | URLResolver] = [
    path("games/", apis.GameListApi.as_view(), name="games"),
    path("games/join-by-code/", apis.GameJoinByCodeApi.as_view(), name="games-join-by-code"),
    path("matchmaking/", apis.MatchmakingApi.as_view(), name="matchmaking"),
    path("games/<str:game_id>/", apis.GameDetailApi.as_view(), name="game"),
    path("games/<str:game_id>/join/", apis.GameJoinApi.as_view(), name="game-join"),
    path("games/<str:game_id>/bots/", apis.GameBotsApi.as_view(), name="game-bots"),
    path("games/<str:game_id>/leave/", apis.GameLeaveApi.as_view(), name="game-leave"),
    path("games/<str:game_id>/start/", apis.GameStartApi.as_view(), name="game-start"),
    path("games/<str:game_id>/resign/", apis.GameResignApi.as_view(), name="game-resign"),
    path("games/<str:game_id>/actions/", apis.GameActionsApi.as_view(), name="game-actions"),
    path("games/<str:game_id>/events/", apis.GameEventsApi.as_view(), name="game-events"),
    path("games/<str:game_id>/replay/", apis.GameReplayApi.as_view(), name="game-replay"),
    path("games/<str:game_id>/rematch/", apis.GameRematchApi.as_view(), name="game-rematch"),
    path("games/<str:game_id>/export/", apis.GameExportApi.as_view(), name="game-export"),
]
