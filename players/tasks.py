"""The players app's Celery task: an account mail (``players.mail``), sent by a worker."""

from __future__ import annotations

from celery import shared_task

from players import mail


@shared_task(name=mail.SEND_TASK, ignore_result=True)
def deliver_account_mail(mail_id: int) -> bool:
    """Send an account mail's row; while the SMTP server fails, the sweep tries it again later."""
    return mail.deliver(mail_id)
