"""Celery tasks of the outbox: they take ids, call the delivery functions, and are safe to run
twice (every one locks what it acts on and checks that it is still to be done). The reminders'
task and the notifications' sweep, which write through games, are the application layer's
(``service.tasks``)."""

from __future__ import annotations

from celery import shared_task

from notifications import delivery


@shared_task(name=delivery.DRAIN_TASK)
def drain() -> int:
    return delivery.drain()


@shared_task(name=delivery.DELIVER_TASK)
def deliver_webhook(attempt_id: int) -> str | None:
    return delivery.deliver(attempt_id)


@shared_task(name=delivery.PUSH_TASK)
def push(notification_id: int) -> int:
    return delivery.push(notification_id)
