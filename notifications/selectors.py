"""Reads of notifications: the inbox, webhooks and their delivery log."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import DEFAULT_DB_ALIAS
from django.db.models import QuerySet

from notifications.delivery import PUSHED, notification_json
from notifications.models import Kind, Notification, PushChoice, Webhook, WebhookDelivery
from unoservice import prepared
from unoservice.errors import DomainError

Player = User


def inbox(player: Player, *, unread: bool = False) -> prepared.Listing[Notification]:
    """The caller's notifications, newest first (the inbox's view first writes the reminders the
    caller is due: ``service.reminders.remind_player``), read prepared a page at a time: the
    page asks for its unread count on every notification it hears. ``unread``'s condition is
    written out, not bound, so that the count is read by the index of the unread alone."""
    where = "n.player_id = %s AND NOT n.read" if unread else "n.player_id = %s"
    return prepared.Listing(Notification, DEFAULT_DB_ALIAS, "n", where, (player.pk,), "n.id DESC")


def notification_view(notification: Notification) -> dict[str, Any]:
    return notification_json(notification)


def webhook_view(webhook: Webhook) -> dict[str, Any]:
    return {
        "id": webhook.pk,
        "url": webhook.url,
        "kinds": webhook.kinds,
        "created_at": webhook.created_at,
        "disabled_at": webhook.disabled_at,
    }


def webhooks(player: Player) -> list[dict[str, Any]]:
    return [webhook_view(w) for w in Webhook.objects.filter(player=player).order_by("id")]


def webhook_of(player: Player, webhook_id: int) -> Webhook:
    webhook = Webhook.objects.filter(player=player, pk=webhook_id).first()
    if webhook is None:
        raise DomainError("not_found", "No such webhook.")
    return webhook


def deliveries(webhook: Webhook) -> QuerySet[WebhookDelivery]:
    """The webhook's delivery attempts, the latest first."""
    return WebhookDelivery.objects.filter(webhook=webhook).order_by("-id")


def delivery_view(attempt: WebhookDelivery) -> dict[str, Any]:
    return {
        "notification": attempt.notification_id,
        "attempt": attempt.attempt,
        "at": attempt.at,
        "status": attempt.status,
        "response_code": attempt.response_code,
        "next_retry_at": attempt.next_retry_at,
    }


def push_kinds(player: Player) -> dict[str, Any]:
    """The kinds ``player``'s browsers are pushed, in ``Kind``'s order, and whether they are the
    service's default (``PUSHED``: the player chose none)."""
    choice = PushChoice.objects.filter(player=player).first()
    chosen = PUSHED if choice is None else set(choice.kinds)
    return {"kinds": [k for k in Kind.values if k in chosen], "default": choice is None}
