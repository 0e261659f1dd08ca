"""The service's URLs plus ``/bench/trivial/``: the baselines of the game's view and action
(``GET``: read one row; ``POST``: lock one row and insert one)."""

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
    """An authenticated endpoint that reads one row (``GET``, the caller's), or locks that row and
    inserts one row (``POST``)."""

    def get(self, request: Request) -> Response:
        with connection.cursor() as cursor:
            cursor.execute("SELECT n FROM bench_counter WHERE id = %s", [request.user.pk])
            row = cursor.fetchone()
        return Response({"n": row[0] if row else None})

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
