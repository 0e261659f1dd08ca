"""The service's URLs plus ``/bench/trivial/``: the baseline the game action is measured against."""

from django.db import connection, transaction
from django.urls import URLPattern, URLResolver, path
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from unoservice import urls as service

TABLES = """
CREATE TABLE IF NOT EXISTS bench_counter (id bigint PRIMARY KEY, n bigint NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS bench_tick (id bigserial PRIMARY KEY, player bigint, at timestamptz);
"""


class TrivialApi(APIView):
    """An authenticated endpoint that locks one row (the caller's) and inserts one row."""

    def post(self, request: Request) -> Response:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                "SELECT n FROM bench_counter WHERE id = %s FOR UPDATE", [request.user.pk]
            )
            cursor.execute(
                "INSERT INTO bench_tick (player, at) VALUES (%s, now())", [request.user.pk]
            )
        return Response({"ok": True})


urlpatterns: list[URLPattern | URLResolver] = [
    *service.urlpatterns,
    path("bench/trivial/", TrivialApi.as_view()),
]
