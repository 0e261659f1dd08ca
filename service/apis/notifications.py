"""The inbox over HTTP: reading it first writes the turn reminders the caller is due (the lazy
path, right even with no worker), through the application layer."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from notifications import selectors
from notifications.apis import NOTIFICATION_EXAMPLE, NOTIFICATIONS, page
from notifications.serializers import NotificationListQuerySerializer, NotificationPageSerializer
from service.reminders import remind_player
from unoservice import api
from unoservice.api import APIView
from unoservice.schema import errors_for


class NotificationListApi(APIView):
    @extend_schema(
        operation_id="notifications_list",
        summary="The caller's notifications, newest first",
        tags=NOTIFICATIONS,
        parameters=[NotificationListQuerySerializer],
        responses={
            200: NotificationPageSerializer,
            **errors_for("invalid", "not_authenticated", "not_found"),
        },
        examples=[NOTIFICATION_EXAMPLE],
    )
    def get(self, request: Request) -> Response:
        query = api.query(NotificationListQuerySerializer, request)
        player = api.caller(request)
        remind_player(player.pk)
        notifications = selectors.inbox(player, unread=query["unread"])
        return page(request, self, notifications, selectors.notification_view)
