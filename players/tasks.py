"""The players app's Celery task: an account mail (``players.mail``), sent by a worker."""

from __future__ import annotations

from smtplib import SMTPException

from celery import shared_task
from django.conf import settings

from players import mail


@shared_task(
    name=mail.SEND_TASK,
    autoretry_for=(SMTPException, OSError),
    retry_backoff=settings.UNO_MAIL_RETRY_SECONDS,
    retry_backoff_max=3600,
    max_retries=8,
    ignore_result=True,
)
def send_account_mail(
    kind: mail.MailKind, user_id: int, address: str, base_url: str, language: mail.Language
) -> bool:
    """Send an account mail; while the SMTP server fails, again later (about 2 hours in all)."""
    return mail.send(kind, user_id, address, base_url, language)
