"""Routes of the streams, under /api/v1/."""

from django.urls import URLPattern, URLResolver, path

from streams import apis

urlpatterns: list[URLPattern | URLResolver] = [
    path("games/<str:game_id>/stream/", apis.GameStreamApi.as_view(), name="game-stream"),
    path("players/me/stream/", apis.PlayerStreamApi.as_view(), name="players-me-stream"),
    path("auth/stream-ticket/", apis.StreamTicketApi.as_view(), name="auth-stream-ticket"),
]
