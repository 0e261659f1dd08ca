"""Delivering the outbox: notifications to webhooks (signed, retried) and to Web Push.

The drain takes the notifications not yet dispatched, a batch at a time under ``FOR UPDATE SKIP
LOCKED`` (so two workers never take the same row), writes one pending ``WebhookDelivery`` per
webhook that wants the kind, marks the batch dispatched, and after the commit hands each attempt
and each push to Celery. An attempt locks its row while it posts, so it is made once however
many tasks (a retried message, the sweep) reach it; a failed attempt writes the next one, due
after the next of ``UNO_WEBHOOK_RETRY_DELAYS``, with the same id and body. A webhook that has
failed every delivery for ``UNO_WEBHOOK_DISABLE_AFTER`` seconds is disabled.

With no broker (``task_always_eager``) everything runs in-process after the commit, and a
retry that fell due is made by the next drain that delivers something.
"""

from __future__ import annotations

import json
import logging
import time
from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.utils import timezone

from notifications import http, signing, webpush
from notifications.models import (
    DeliveryStatus,
    Kind,
    Notification,
    PushChoice,
    PushSubscription,
    Webhook,
    WebhookDelivery,
)
from unoservice.celery import app

log = logging.getLogger(__name__)

QUEUE = "notifications"
DRAIN_TASK = "notifications.drain"
DELIVER_TASK = "notifications.deliver_webhook"
PUSH_TASK = "notifications.push"
REMIND_TASK = "notifications.remind"
SWEEP_TASK = "notifications.sweep"

# The kinds Web Push carries for a player who chose none (``PushChoice``): those they act on.
PUSHED = frozenset({Kind.YOUR_TURN, Kind.DEADLINE_SOON, Kind.GAME_FINISHED})
DRAIN_BATCH = 100
# A notice that is written in place of another kind's to its player: an accepted challenge's
# stands for the challenger's ``game_started`` of its game (``outbox.told_otherwise``). A webhook
# or a browser that takes the kind it stands for takes it (once, however many of the two it
# takes): one that took ``game_started`` alone heard nothing of a challenge's game until a turn.
STANDS_FOR: dict[str, str] = {Kind.CHALLENGE_ACCEPTED: Kind.GAME_STARTED}


def takes(kinds: Collection[str], kind: str) -> bool:
    """Whether a webhook (or a player's push choice) of ``kinds`` takes a notification of
    ``kind``: its own kind, or the one it stands for (``STANDS_FOR``)."""
    return kind in kinds or STANDS_FOR.get(kind) in kinds


# A pending attempt due longer ago than this lost its task: the sweep makes it.
LOST_AFTER = timedelta(seconds=30)


def notification_json(notification: Notification, *, as_written: bool = False) -> dict[str, Any]:
    """The contract's shape of a notification; ``as_written``: unread, as every delivery of it
    carries it (the same body on every retry)."""
    return {
        "id": notification.pk,
        "kind": notification.kind,
        "game": str(notification.game_id) if notification.game_id is not None else None,
        "at": notification.at.isoformat(),
        "read": False if as_written else notification.read,
        "data": notification.data,
    }


def body_of(notification: Notification) -> bytes:
    shape = notification_json(notification, as_written=True)
    return json.dumps(shape, separators=(",", ":"), sort_keys=True).encode()


def _eager() -> bool:
    return bool(app.conf.task_always_eager)


def send(task: str, args: list[Any], eta: datetime | None = None) -> None:
    """Queue ``task``; a broker that does not answer costs a log line (the sweep catches up)."""
    try:
        app.send_task(task, args=args, eta=eta, retry=False)  # routed to QUEUE
    except Exception:
        log.warning("could not queue %s%r", task, args, exc_info=True)


def queue_drain() -> None:
    """After a commit that wrote notifications: have them delivered."""
    if _eager():
        drain()
    else:
        send(DRAIN_TASK, [])


# --- the drain ------------------------------------------------------------------------------------


def drain(batch: int = DRAIN_BATCH) -> int:
    """Dispatch every notification not yet dispatched; return how many this call took."""
    taken = 0
    while True:
        count = _drain_batch(batch)
        taken += count
        if count < batch:
            return taken


@dataclass(frozen=True, order=True)
class _Taken:
    id: int
    player_id: int
    kind: str
    hooked: bool  # the player has a webhook that is not disabled
    pushed: bool  # the player has a push subscription and pushes this kind (PushChoice)


def _take(size: int) -> list[_Taken]:
    """Mark up to ``size`` notifications dispatched, the oldest first, skipping rows another
    drain holds; what was taken, with whether its player has anywhere to deliver it. On
    PostgreSQL one statement: it runs after most writes, and most players have nowhere."""
    db = connections[DEFAULT_DB_ALIAS]
    table, hooks, subscriptions, choices = (
        db.ops.quote_name(model._meta.db_table)
        for model in (Notification, Webhook, PushSubscription, PushChoice)
    )
    if db.vendor == "postgresql":
        sql = (
            f'WITH taken AS (SELECT "id" FROM {table} WHERE NOT "dispatched" ORDER BY "id"'
            " LIMIT %s FOR UPDATE SKIP LOCKED)"
            f' UPDATE {table} AS n SET "dispatched" = true FROM taken WHERE n."id" = taken."id"'
            ' RETURNING n."id", n."player_id", n."kind",'
            f' EXISTS (SELECT 1 FROM {hooks} AS w WHERE w."player_id" = n."player_id"'
            ' AND w."disabled_at" IS NULL),'
            f' EXISTS (SELECT 1 FROM {subscriptions} AS s WHERE s."player_id" = n."player_id")'
            " AND jsonb_exists_any(COALESCE("
            f'(SELECT c."kinds" FROM {choices} AS c WHERE c."player_id" = n."player_id"),'
            # ``takes``: the kind, or the kind it stands for (the map gives none: the kind again).
            ' %s::jsonb), ARRAY[n."kind", COALESCE(%s::jsonb ->> n."kind", n."kind")])'
        )
        with db.cursor() as cursor:
            cursor.execute(sql, [size, json.dumps(sorted(PUSHED)), json.dumps(STANDS_FOR)])
            return sorted(_Taken(*row) for row in cursor.fetchall())
    # Elsewhere (SQLite: one writer at a time) a row is taken by the update that changes it.
    waiting = list(
        Notification.objects.filter(dispatched=False)
        .order_by("id")
        .values_list("id", "player_id", "kind")[:size]
    )
    players = {player for _, player, _ in waiting}
    hooked = set(
        Webhook.objects.filter(player_id__in=players, disabled_at=None).values_list(
            "player_id", flat=True
        )
    )
    subscribed = set(
        PushSubscription.objects.filter(player_id__in=players).values_list("player_id", flat=True)
    )
    chosen = dict(PushChoice.objects.filter(player_id__in=players).values_list("player", "kinds"))
    return [
        _Taken(
            pk,
            player,
            kind,
            player in hooked,
            player in subscribed and takes(chosen.get(player, PUSHED), kind),
        )
        for pk, player, kind in waiting
        if Notification.objects.filter(pk=pk, dispatched=False).update(dispatched=True)
    ]


def _drain_batch(size: int) -> int:
    with transaction.atomic():
        batch = _take(size)
        hooked = {n.player_id for n in batch if n.hooked}
        if not hooked and not any(n.pushed for n in batch):
            return len(batch)  # most players: the inbox (and the player stream) is all they read
        hooks: dict[int, list[Webhook]] = defaultdict(list)
        for hook in Webhook.objects.filter(player_id__in=hooked, disabled_at=None):
            hooks[hook.player_id].append(hook)
        now = timezone.now()
        attempts = WebhookDelivery.objects.bulk_create(
            WebhookDelivery(webhook=hook, notification_id=n.id, attempt=1, at=now)
            for n in batch
            for hook in hooks[n.player_id]
            if takes(hook.kinds, n.kind)
        )
        pushes = [n.id for n in batch if n.pushed]
        if attempts or pushes:
            transaction.on_commit(partial(_hand_over, [a.pk for a in attempts], pushes))
    return len(batch)


def _hand_over(attempts: Sequence[int], pushes: Sequence[int]) -> None:
    if _eager():
        for attempt in attempts:
            deliver(attempt)
        for notification in pushes:
            push(notification)
        if attempts:
            deliver_due(timedelta(0))  # no worker: retries that fell due meanwhile
        return
    for attempt in attempts:
        send(DELIVER_TASK, [attempt])
    for notification in pushes:
        send(PUSH_TASK, [notification])


# --- webhooks -------------------------------------------------------------------------------------


def retry_delay(attempt: int) -> int:
    """Seconds from failed attempt ``attempt`` (1 for the first) to the next: the schedule's
    last delay repeats."""
    delays: list[int] = settings.UNO_WEBHOOK_RETRY_DELAYS
    return delays[min(attempt, len(delays)) - 1]


def deliver(attempt_id: int) -> str | None:
    """Make the pending attempt ``attempt_id``: its status after, or None when it was not
    pending (made already, or being made by another worker)."""
    with transaction.atomic():
        attempt = (
            WebhookDelivery.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("webhook", "notification")
            .filter(pk=attempt_id, status=DeliveryStatus.PENDING)
            .first()
        )
        if attempt is None:
            return None
        hook, notification = attempt.webhook, attempt.notification
        attempt.at = timezone.now()
        if hook.disabled_at is not None:
            attempt.status = DeliveryStatus.FAILED
            attempt.save(update_fields=["at", "status"])
            return attempt.status
        code = _post(hook, notification)
        now = timezone.now()
        attempt.response_code = code
        if code is not None and 200 <= code < 300:
            attempt.status = DeliveryStatus.SUCCEEDED
            Webhook.objects.filter(pk=hook.pk).update(failing_since=None)
        else:
            attempt.status = DeliveryStatus.FAILED
            attempt.next_retry_at = _failed(hook, notification, attempt.attempt, now)
        attempt.save(update_fields=["at", "status", "response_code", "next_retry_at"])
        if attempt.next_retry_at is not None:
            following = WebhookDelivery.objects.create(
                webhook=hook,
                notification=notification,
                attempt=attempt.attempt + 1,
                at=attempt.next_retry_at,
            )
            transaction.on_commit(partial(schedule_attempt, following.pk, following.at))
        return attempt.status


def _post(hook: Webhook, notification: Notification) -> int | None:
    body = body_of(notification)
    headers = signing.headers(hook.secret, str(notification.pk), int(time.time()), body)
    try:
        return http.post(hook.url, body, headers)
    except http.Refused as refused:
        log.warning("webhook %s refused: %s", hook.pk, refused)
        return None


def _failed(
    hook: Webhook, notification: Notification, attempt: int, now: datetime
) -> datetime | None:
    """Count failed ``attempt`` against ``hook``: when the next is due, or None (no more)."""
    give_up = timedelta(seconds=settings.UNO_WEBHOOK_DISABLE_AFTER)
    Webhook.objects.filter(pk=hook.pk, failing_since__isnull=True).update(failing_since=now)
    disabled = Webhook.objects.filter(
        pk=hook.pk, disabled_at__isnull=True, failing_since__lte=now - give_up
    ).update(disabled_at=now)
    if disabled:
        log.info("webhook %s disabled: every delivery failed for %s", hook.pk, give_up)
        return None
    if now - notification.at >= give_up:
        return None
    return now + timedelta(seconds=retry_delay(attempt))


def schedule_attempt(attempt_id: int, at: datetime) -> None:
    """Queue an attempt for when it is due (within ``UNO_SCHEDULE_HORIZON``; the sweep makes
    those further off, and every one in-process)."""
    if _eager():
        return
    if at - timezone.now() > timedelta(seconds=settings.UNO_SCHEDULE_HORIZON):
        return
    send(DELIVER_TASK, [attempt_id], eta=at)


def deliver_due(late_by: timedelta = LOST_AFTER, limit: int = 50) -> int:
    """Make the pending attempts due more than ``late_by`` ago; return how many were made."""
    due = list(
        WebhookDelivery.objects.filter(
            status=DeliveryStatus.PENDING, at__lte=timezone.now() - late_by
        )
        .order_by("at")
        .values_list("pk", flat=True)[:limit]
    )
    return sum(deliver(pk) is not None for pk in due)


# --- Web Push -------------------------------------------------------------------------------------


def push(notification_id: int) -> int:
    """Push a notification to its player's subscriptions; return how many took it.

    A subscription its push service answers 404 or 410 for is gone: it is deleted."""
    notification = Notification.objects.filter(pk=notification_id).first()
    if notification is None or not webpush.configured():
        return 0
    payload = body_of(notification)
    sent = 0
    for subscription in PushSubscription.objects.filter(player_id=notification.player_id):
        try:
            code = webpush.send(subscription, payload)
        except http.Refused as refused:
            log.warning("push subscription %s refused: %s", subscription.pk, refused)
            continue
        if code in (404, 410):
            subscription.delete()
        elif code is not None and 200 <= code < 300:
            sent += 1
        else:
            log.info("push to subscription %s answered %s", subscription.pk, code)
    return sent
