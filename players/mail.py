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

A request writes the mail as a row (``AccountMail``) in its transaction and hands it after its
commit to a worker on the broker (the notifications queue), or sends it in-process without one
(``make run``, where Django's console backend prints the mail). The row goes once the mail is
sent: the beat's sweep (``send_due``) hands again a mail whose task was lost (the broker was
down) and a failed one's next attempt (the SMTP server could not be reached).

A password's reset is asked with an address alone, by anyone, and the request must not show
whether an account has it, in its answer or in its time: looking the accounts up and writing
their mails in the request took measurably longer for an address that has one (and without a
broker the SMTP exchange ran in the request too). So the request writes one row whatever the
address, ``RESET_ASKED`` with no account (``ask_reset``), and hands it as any other; the worker
looks the address up and writes a ``RESET_PASSWORD`` mail for each active account that has it
confirmed, or nothing (``_expand``). Without a broker that runs on a thread of its own, after
the request's commit, so that the request does the same work there too.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from datetime import datetime, timedelta
from functools import partial
from smtplib import SMTPRecipientsRefused, SMTPResponseException
from typing import Literal

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.core import signing
from django.core.mail import EmailMessage
from django.db import connection, transaction
from django.utils import timezone
from django.utils.http import base36_to_int, int_to_base36
from kombu.exceptions import OperationalError as BrokerError

from players.models import AccountMail
from unoservice.celery import app

log = logging.getLogger(__name__)

LANGUAGES = ("en", "pt")
Language = Literal["en", "pt"]
MailKind = Literal["confirm_email", "reset_password"]
CONFIRM_EMAIL: MailKind = "confirm_email"
RESET_PASSWORD: MailKind = "reset_password"
# Not a mail: a reset asked for an address, which the worker turns into a mail per account.
RESET_ASKED = "reset_asked"
SEND_TASK = "players.deliver_account_mail"
EMAIL_LINK_SECONDS = 3 * 24 * 3600
MAIL_ATTEMPTS = 9  # with UNO_MAIL_RETRY_SECONDS' doubling delays: about 2 hours of tries
MAX_RETRY_SECONDS = 3600
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
    raise."""
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is None or (kind == RESET_PASSWORD and user.email.lower() != address.lower()):
        log.info("account mail %s for player %s not sent: the account changed", kind, user_id)
        return False
    compose(kind, user, address, base_url, language).send()
    log.info("account mail %s sent for player %s", kind, user_id)  # never the address: PII
    return True


# --- the outbox: a mail is a row until it is sent -------------------------------------------------


def queue(kind: MailKind, user: User, address: str, base_url: str, language: Language) -> None:
    """Write the mail's row in the caller's transaction and hand it to a worker after the
    commit (a rolled back request sends none; a broker that is down leaves it to the sweep)."""
    _write(kind, user, address, base_url, language, here=True)


def ask_reset(address: str, base_url: str, language: Language) -> None:
    """A reset asked for ``address``: one row and one hand after the caller's commit, the same
    whether or not an account has the address (module docstring); the worker looks it up."""
    _write(RESET_ASKED, None, address, base_url, language, here=False)


def _write(
    kind: str, user: User | None, address: str, base_url: str, language: Language, *, here: bool
) -> None:
    row = AccountMail.objects.create(
        player=user,
        kind=kind,
        address=address,
        base_url=base_url,
        language=language,
        # Still here then, it lost its task (the broker was down): the sweep hands it again.
        due_at=timezone.now() + timedelta(seconds=settings.UNO_MAIL_RETRY_SECONDS),
    )
    transaction.on_commit(partial(hand, row.pk, here=here))


def hand(mail_id: int, *, here: bool = True) -> None:
    """Have the mail sent: by a worker, or in this process without a broker (``make run``): in
    this thread, or, not ``here`` (a reset asked, whose work must not be the request's), on a
    thread of its own."""
    if app.conf.task_always_eager:
        if here:
            deliver(mail_id)
        else:
            threading.Thread(target=_deliver_aside, args=(mail_id,), daemon=True).start()
        return
    try:
        app.send_task(SEND_TASK, args=[mail_id], retry=False)
    except BrokerError as exc:
        why = type(exc).__name__
        log.warning("account mail %s not queued (%s): the sweep sends it", mail_id, why)


def _deliver_aside(mail_id: int) -> None:
    """``deliver`` on a thread of this process (no broker); the thread's database connection
    is closed when it is done. A failure is logged: the row stays for the sweep."""
    try:
        deliver(mail_id)
    except Exception:
        log.exception("account mail %s not delivered in-process: the sweep sends it", mail_id)
    finally:
        connection.close()


def deliver(mail_id: int) -> bool:
    """Send the mail ``mail_id`` and delete its row; on a failure of the SMTP server that may
    pass, keep it for the sweep to send again later (``UNO_MAIL_RETRY_SECONDS``, doubled each
    time, ``MAIL_ATTEMPTS`` in all). Safe to run twice: the row is locked while it is sent, and a
    mail sent, given up or not yet due again is not sent."""
    with transaction.atomic():
        row = AccountMail.objects.select_for_update(skip_locked=True).filter(pk=mail_id).first()
        now = timezone.now()
        if row is None or (row.attempts and row.due_at > now):
            return False
        kind, language = _kind(row.kind), _language(row.language)
        try:
            if row.kind == RESET_ASKED or row.player_id is None:  # no account: a reset asked
                return _expand(row, language) > 0
            sent = send(kind, row.player_id, row.address, row.base_url, language)
        except Exception as exc:  # SMTP's failures, and any other: counted, never retried forever
            _failed(row, exc, now)
            return False
        row.delete()
        return sent


def _expand(row: AccountMail, language: Language) -> int:
    """A reset asked (``row``, locked): a reset mail to every active account whose confirmed
    address it is (any case), each handed after the commit; the row goes. How many."""
    confirmed = User.objects.filter(email__iexact=row.address, is_active=True).exclude(email="")
    accounts = list(confirmed.order_by("pk"))  # by players_email_upper (players/migrations)
    for user in accounts:
        queue(RESET_PASSWORD, user, user.email, row.base_url, language)
    log.info("password reset %s asked: %d account mail(s)", row.pk, len(accounts))
    row.delete()
    return len(accounts)


def _kind(stored: str) -> MailKind:
    return CONFIRM_EMAIL if stored == CONFIRM_EMAIL else RESET_PASSWORD


def _language(stored: str) -> Language:
    return "pt" if stored == "pt" else "en"


def _failed(row: AccountMail, exc: Exception, now: datetime) -> None:
    # The exception's class only: SMTP's refusals quote the recipients' addresses.
    why = type(exc).__name__
    row.attempts += 1
    if _permanent(exc) or row.attempts >= MAIL_ATTEMPTS:
        log.warning("account mail %s for player %s given up: %s", row.kind, row.player_id, why)
        row.delete()
        return
    delay = min(settings.UNO_MAIL_RETRY_SECONDS * 2 ** (row.attempts - 1), MAX_RETRY_SECONDS)
    row.due_at = now + timedelta(seconds=delay)
    row.save(update_fields=["attempts", "due_at"])
    log.info(
        "account mail %s for player %s not sent (%s): again in %d s",
        row.kind,
        row.player_id,
        why,
        delay,
    )


def _permanent(exc: Exception) -> bool:
    """The server refused the mail for good (its recipient, a 5xx answer): no retry sends it."""
    if isinstance(exc, SMTPRecipientsRefused):
        return True
    return isinstance(exc, SMTPResponseException) and 500 <= exc.smtp_code < 600


def send_due(limit: int = 100) -> int:
    """The sweep's part: hand every mail that is due (a failed one's next attempt, or one whose
    task was lost) to a worker again; how many."""
    due = AccountMail.objects.filter(due_at__lte=timezone.now()).order_by("due_at")
    ids = list(due.values_list("pk", flat=True)[:limit])
    for mail_id in ids:
        hand(mail_id)
    return len(ids)
