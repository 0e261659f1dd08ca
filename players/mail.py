"""The account mails: an e-mail address's confirmation and a forgotten password's reset.

Each mail carries one link to the web client (``<public url>/#/email/<token>``,
``<public url>/#/reset/<token>``), in the language the client asked for. The tokens are made by
the worker that sends the mail, from the account as it is then, so no secret travels through the
broker, and they are checked against the account as it is when the link is opened:

- a confirmation's token is signed (``django.core.signing``, 3 days) and names the account, the
  address and a digest of the address the account had: once the link has been opened, or
  another address confirmed, it is refused (``link_invalid``);
- a reset's token is Django's (``PasswordResetTokenGenerator``: ``PASSWORD_RESET_TIMEOUT``, a
  day), a hash over the account's password, last sign-in and address: the reset itself, a
  password change or a new address spends it.

A request sends after its commit: through a worker on the broker (the notifications queue,
retried while the SMTP server fails), or in-process without one (``make run``, where Django's
console backend prints the mail).
"""

from __future__ import annotations

import hashlib
import logging
from smtplib import SMTPException
from typing import Any, Literal

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.core import signing
from django.core.mail import EmailMessage
from django.db import transaction
from django.utils.http import base36_to_int, int_to_base36
from kombu.exceptions import OperationalError as BrokerError

from unoservice.celery import app

log = logging.getLogger(__name__)

LANGUAGES = ("en", "pt")
Language = Literal["en", "pt"]
MailKind = Literal["confirm_email", "reset_password"]
CONFIRM_EMAIL: MailKind = "confirm_email"
RESET_PASSWORD: MailKind = "reset_password"
SEND_TASK = "players.send_account_mail"
EMAIL_LINK_SECONDS = 3 * 24 * 3600
_EMAIL_SALT = "uno.players.mail.confirm_email"

# The web client's routes the links open (web/app/main.js).
ROUTES: dict[MailKind, str] = {CONFIRM_EMAIL: "email", RESET_PASSWORD: "reset"}

# (subject, body) by kind and language; the body's {username}, {address}, {link}, {hours}.
TEXTS: dict[tuple[MailKind, Language], tuple[str, str]] = {
    (CONFIRM_EMAIL, "en"): (
        "Confirm your e-mail address for UNO",
        "Hello {username},\n\n"
        "Open this link to make {address} the address of your UNO account:\n\n"
        "{link}\n\n"
        "It is where a link to choose a new password goes if you forget yours. The link works "
        "for {hours} hours. If you did not ask for this, ignore this mail: nothing changes.\n",
    ),
    (CONFIRM_EMAIL, "pt"): (
        "Confirme o seu endereço de e-mail no UNO",
        "Olá {username},\n\n"
        "Abra esta ligação para tornar {address} o endereço da sua conta UNO:\n\n"
        "{link}\n\n"
        "É para lá que vai uma ligação para escolher uma nova palavra-passe, se se esquecer da "
        "sua. A ligação funciona durante {hours} horas. Se não pediu isto, ignore este e-mail: "
        "nada muda.\n",
    ),
    (RESET_PASSWORD, "en"): (
        "Choose a new password for UNO",
        "Hello {username},\n\n"
        "Someone, we hope you, asked to reset the password of your UNO account. Open this link "
        "to choose a new one:\n\n"
        "{link}\n\n"
        "The link works once, for {hours} hours. Every device signed in to the account is "
        "signed out when the password changes. If you did not ask for this, ignore this mail: "
        "your password stays as it is.\n",
    ),
    (RESET_PASSWORD, "pt"): (
        "Escolha uma nova palavra-passe no UNO",
        "Olá {username},\n\n"
        "Alguém, esperamos que tenha sido você, pediu para repor a palavra-passe da sua conta "
        "UNO. Abra esta ligação para escolher uma nova:\n\n"
        "{link}\n\n"
        "A ligação funciona uma vez, durante {hours} horas. Todos os dispositivos com sessão "
        "iniciada na conta saem quando a palavra-passe muda. Se não pediu isto, ignore este "
        "e-mail: a sua palavra-passe fica como está.\n",
    ),
}


# --- tokens --------------------------------------------------------------------------------------


def address_digest(address: str) -> str:
    """A short digest of the address an account has (the confirmation's token carries it, so
    that the new address's reader learns nothing of the old one)."""
    return hashlib.sha256(address.lower().encode()).hexdigest()[:16]


def email_token(user: User, address: str) -> str:
    return signing.dumps(
        {"u": user.pk, "e": address, "w": address_digest(user.email)}, salt=_EMAIL_SALT
    )


def read_email_token(token: str) -> tuple[int, str, str] | None:
    """(account id, address, digest of the address it had) of a good, unexpired token."""
    try:
        data = signing.loads(token, salt=_EMAIL_SALT, max_age=EMAIL_LINK_SECONDS)
    except signing.BadSignature:  # its expiry (SignatureExpired) too
        return None
    if not isinstance(data, dict):
        return None
    user_id, address, was = data.get("u"), data.get("e"), data.get("w")
    if type(user_id) is not int or not isinstance(address, str) or not isinstance(was, str):
        return None
    return user_id, address, was


def reset_token(user: User) -> str:
    return f"{int_to_base36(user.pk)}-{default_token_generator.make_token(user)}"


def reset_account(token: str) -> User | None:
    """The active account whose reset ``token`` is (still) good, or None."""
    uid, _, rest = token.partition("-")
    try:
        user_id = base36_to_int(uid)
    except ValueError:
        return None
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is None or not default_token_generator.check_token(user, rest):
        return None
    return user


# --- the mails -----------------------------------------------------------------------------------


def compose(
    kind: MailKind, user: User, address: str, base_url: str, language: Language
) -> EmailMessage:
    token = email_token(user, address) if kind == CONFIRM_EMAIL else reset_token(user)
    seconds = EMAIL_LINK_SECONDS if kind == CONFIRM_EMAIL else settings.PASSWORD_RESET_TIMEOUT
    subject, body = TEXTS[(kind, language)]
    text = body.format(
        username=user.get_username(),
        address=address,
        link=f"{base_url}/#/{ROUTES[kind]}/{token}",
        hours=seconds // 3600,
    )
    return EmailMessage(subject, text, settings.DEFAULT_FROM_EMAIL, [address])


def send(kind: MailKind, user_id: int, address: str, base_url: str, language: Language) -> bool:
    """Send the mail if it still has a reader: the account is active, and a reset still goes to
    its confirmed address (which may have changed since it was asked for). SMTP's failures
    raise (the task retries)."""
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is None or (kind == RESET_PASSWORD and user.email.lower() != address.lower()):
        log.info("account mail %s for player %s not sent: the account changed", kind, user_id)
        return False
    compose(kind, user, address, base_url, language).send()
    log.info("account mail %s sent for player %s", kind, user_id)  # never the address: PII
    return True


def send_after_commit(
    kind: MailKind, user: User, address: str, base_url: str, language: Language
) -> None:
    """Send the mail once the request's transaction commits (a rolled back one sends none)."""
    args: list[Any] = [kind, user.pk, address, base_url, language]

    def go() -> None:
        try:
            if app.conf.task_always_eager:
                send(*args)
            else:
                app.send_task(SEND_TASK, args=args, retry=False)
        except (SMTPException, OSError, BrokerError) as exc:
            # The answer is given; the person asks again (the mail's page says so).
            log.warning("account mail %s for player %s not sent: %s", kind, user.pk, exc)

    transaction.on_commit(go)
