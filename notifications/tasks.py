"""Celery tasks of the outbox: they take ids, call the delivery functions, and are safe to run
twice (every one locks what it acts on and checks that it is still to be done)."""

from __future__ import annotations

from celery import shared_task

from notifications import delivery, reminders


@shared_task(name=delivery.DRAIN_TASK)
def drain() -> int:
    return delivery.drain()


@shared_task(name=delivery.DELIVER_TASK)
def deliver_webhook(attempt_id: int) -> str | None:
    return delivery.deliver(attempt_id)


@shared_task(name=delivery.PUSH_TASK)
def push(notification_id: int) -> int:
    return delivery.push(notification_id)


@shared_task(name=delivery.REMIND_TASK)
def remind(game_id: str, version: int) -> bool:
    return reminders.remind(game_id, version)


@shared_task(name=delivery.SWEEP_TASK)
def sweep() -> dict[str, int]:
    """What the tasks missed (a worker or the broker was down): undispatched notifications,
    due reminders, attempts whose task was lost or lies past the schedule horizon."""
    return {
        "reminded": reminders.remind_due(),
        "drained": delivery.drain(),
        "delivered": delivery.deliver_due(),
    }
