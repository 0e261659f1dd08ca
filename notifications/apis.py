"""The notifications HTTP API: the inbox, webhooks and Web Push. One thin APIView per operation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from notifications import limits, selectors, services, webpush
from notifications.serializers import (
    PUSHED_BY_DEFAULT,
    DeliveryPageSerializer,
    MarkedSerializer,
    MarkReadSerializer,
    PageQuerySerializer,
    PushKeySerializer,
    PushKindsChooseSerializer,
    PushKindsSerializer,
    PushSubscriptionCreateSerializer,
    PushSubscriptionSerializer,
    WebhookCreatedSerializer,
    WebhookCreateSerializer,
    WebhookListSerializer,
    WebhookSerializer,
)
from players.scopes import AccountChange
from unoservice import api
from unoservice.api import APIView
from unoservice.pages import page_response
from unoservice.schema import errors_for

NOTIFICATIONS = ["notifications"]
WEBHOOKS = ["webhooks"]
PUSH = ["push"]


def page(request: Request, view: APIView, rows: Any, show: Callable[[Any], Any]) -> Response:
    return page_response(
        request, view, rows, lambda _, row: show(row), size=limits.PAGE, default=limits.PAGE_DEFAULT
    )


NOTIFICATION_EXAMPLE = OpenApiExample(
    "It is your turn",
    response_only=True,
    value={
        "count": 1,
        "next": None,
        "previous": None,
        "results": [
            {
                "id": 41,
                "kind": "your_turn",
                "game": "5f0c6f9e-2b1a-4a53-9a3e-6c1f7d1e2a10",
                "at": "2026-11-30T12:00:00+00:00",
                "read": False,
                "data": {
                    "seat": 1,
                    "version": 12,
                    "deadline": "2026-12-01T12:00:00+00:00",
                    "others": [{"id": 7, "username": "ana"}],
                },
            }
        ],
    },
)


class NotificationReadApi(APIView):
    @extend_schema(
        operation_id="notifications_read",
        summary="Mark notifications read",
        tags=NOTIFICATIONS,
        request=MarkReadSerializer,
        responses={200: MarkedSerializer, **errors_for("invalid", "not_authenticated")},
        examples=[
            OpenApiExample("Some", request_only=True, value={"ids": [41, 42]}),
            OpenApiExample("All", request_only=True, value={"all": True}),
        ],
    )
    def post(self, request: Request) -> Response:
        data = api.validated(MarkReadSerializer, request.data)
        marked = services.mark_read(player=api.caller(request), ids=data.get("ids"))
        return Response({"marked": marked})


class WebhookListApi(APIView):
    @extend_schema(
        operation_id="webhooks_list",
        summary="The caller's webhooks",
        tags=WEBHOOKS,
        responses={200: WebhookListSerializer, **errors_for("not_authenticated")},
    )
    def get(self, request: Request) -> Response:
        return Response({"results": selectors.webhooks(api.caller(request))})

    @extend_schema(
        operation_id="webhooks_create",
        summary="Deliver the caller's notifications to a URL (signed; the secret is shown once)",
        tags=WEBHOOKS,
        request=WebhookCreateSerializer,
        responses={
            201: WebhookCreatedSerializer,
            **errors_for("invalid", "url_refused", "limit_reached", "not_authenticated"),
        },
        examples=[
            OpenApiExample(
                "Turns and results",
                request_only=True,
                value={"url": "https://example.com/uno", "kinds": ["your_turn", "game_finished"]},
            )
        ],
    )
    def post(self, request: Request) -> Response:
        data = api.validated(WebhookCreateSerializer, request.data)
        webhook = services.webhook_create(
            player=api.caller(request), url=data["url"], kinds=data.get("kinds")
        )
        body = {**selectors.webhook_view(webhook), "secret": webhook.secret}
        return Response(WebhookCreatedSerializer(body).data, status=status.HTTP_201_CREATED)


class WebhookDetailApi(APIView):
    @extend_schema(
        operation_id="webhooks_delete",
        summary="Delete one of the caller's webhooks",
        tags=WEBHOOKS,
        responses={204: None, **errors_for("not_authenticated", "not_found")},
    )
    def delete(self, request: Request, webhook_id: int) -> Response:
        services.webhook_delete(player=api.caller(request), webhook_id=webhook_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookEnableApi(APIView):
    @extend_schema(
        operation_id="webhooks_enable",
        summary="Turn one of the caller's webhooks on again",
        description=(
            "A webhook every delivery of which failed for 3 days is turned off (`disabled_at`). "
            "Once its receiver is fixed, this turns it on again, with its URL, kinds and secret "
            "as they were: it is sent the notifications written from now on. On already, "
            "nothing changes. 400 `url_refused` when its address may not be posted to any more."
        ),
        tags=WEBHOOKS,
        request=None,
        responses={
            200: WebhookSerializer,
            **errors_for("not_authenticated", "not_found", "url_refused"),
        },
    )
    def post(self, request: Request, webhook_id: int) -> Response:
        webhook = services.webhook_enable(player=api.caller(request), webhook_id=webhook_id)
        return Response(WebhookSerializer(selectors.webhook_view(webhook)).data)


class WebhookDeliveriesApi(APIView):
    @extend_schema(
        operation_id="webhooks_deliveries",
        summary="A webhook's delivery attempts, the latest first",
        tags=WEBHOOKS,
        parameters=[PageQuerySerializer],
        responses={
            200: DeliveryPageSerializer,
            **errors_for("invalid", "not_authenticated", "not_found"),
        },
    )
    def get(self, request: Request, webhook_id: int) -> Response:
        api.query(PageQuerySerializer, request)
        webhook = selectors.webhook_of(api.caller(request), webhook_id)
        return page(request, self, selectors.deliveries(webhook), selectors.delivery_view)


class PushKeyApi(APIView):
    @extend_schema(
        operation_id="push_key",
        summary="The server's VAPID public key, for PushManager.subscribe",
        tags=PUSH,
        responses={
            200: PushKeySerializer,
            **errors_for("not_authenticated", "push_not_configured"),
        },
    )
    def get(self, request: Request) -> Response:
        return Response({"public_key": webpush.keys().public_key})


class PushKindsApi(APIView):
    @extend_schema(
        operation_id="push_kinds",
        summary="The kinds of notification pushed to the caller's browsers",
        description=(
            "Web Push carries the kinds chosen here (`PUT`); until the caller chooses, "
            f"{PUSHED_BY_DEFAULT} (`default: true`). The inbox gets every kind, a webhook the "
            "kinds it was made with."
        ),
        tags=PUSH,
        responses={200: PushKindsSerializer, **errors_for("not_authenticated")},
    )
    def get(self, request: Request) -> Response:
        return Response(PushKindsSerializer(selectors.push_kinds(api.caller(request))).data)

    @extend_schema(
        operation_id="push_kinds_choose",
        summary="Choose the kinds of notification pushed to the caller's browsers",
        description="Every browser of the caller, from the next notification on; answers it.",
        tags=PUSH,
        request=PushKindsChooseSerializer,
        responses={200: PushKindsSerializer, **errors_for("invalid", "not_authenticated")},
        examples=[
            OpenApiExample(
                "Turns and challenges",
                request_only=True,
                value={"kinds": ["your_turn", "deadline_soon", "challenge", "tournament_table"]},
            )
        ],
    )
    def put(self, request: Request) -> Response:
        data = api.validated(PushKindsChooseSerializer, request.data)
        player = api.caller(request)
        services.push_kinds_choose(player=player, kinds=data["kinds"])
        return Response(PushKindsSerializer(selectors.push_kinds(player)).data)


class PushSubscriptionListApi(AccountChange, APIView):
    @extend_schema(
        operation_id="push_subscribe",
        summary="Subscribe a browser (its PushSubscription JSON) to the caller's notifications",
        description=(
            "Not with a bot account's token (403 `bot_account_scope`): a program has no browser."
        ),
        tags=PUSH,
        request=PushSubscriptionCreateSerializer,
        responses={
            201: PushSubscriptionSerializer,
            **errors_for(
                "invalid",
                "url_refused",
                "limit_reached",
                "not_authenticated",
                "push_not_configured",
                "bot_account_scope",
            ),
        },
    )
    def post(self, request: Request) -> Response:
        data = api.validated(PushSubscriptionCreateSerializer, request.data)
        subscription = services.subscription_create(
            player=api.caller(request),
            endpoint=data["endpoint"],
            p256dh=data["keys"]["p256dh"],
            auth=data["keys"]["auth"],
        )
        return Response({"id": subscription.pk}, status=status.HTTP_201_CREATED)


class PushSubscriptionDetailApi(APIView):
    @extend_schema(
        operation_id="push_unsubscribe",
        summary="Unsubscribe a browser",
        tags=PUSH,
        responses={204: None, **errors_for("not_authenticated", "not_found")},
    )
    def delete(self, request: Request, subscription_id: int) -> Response:
        services.subscription_delete(player=api.caller(request), subscription_id=subscription_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
