"""An account's e-mail address, and the reset of a forgotten password by a link mailed to it.

- The address is the account's once its owner opens the link mailed to it
  (``email_change``, then ``email_confirm``): a typo, or someone else's address, never becomes
  the account's, so a reset never goes to a stranger. Setting one asks for the password, as a
  password change does: whoever holds a token alone cannot redirect the account's resets.
- A reset is asked with the address alone, and answered alike whether or not an account has it
  (``password_reset_request``), after the same work: neither the answer nor its time tells
  anybody who plays here (a worker looks the address up). Every active account
  with that confirmed address is mailed a link of its own; its token sets a new password once
  (``password_reset``), and every session of the account ends with it, as with a change.

A guest has no password, so neither an address: it claims the account first. The mails and
their tokens are ``players.mail``'s.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from players import mail
from players.locks import lock_player
from players.services import is_guest, password_set
from unoservice.errors import DomainError

LINK_INVALID = "The link is malformed, expired or used already: ask for a new one."


def email_change(
    *, user: User, email: str, password: str, base_url: str, language: mail.Language
) -> dict[str, Any]:
    """Mail a confirmation link to ``email`` (the address is the account's once it is opened),
    or, with ``""``, remove the account's address; ``password`` must be the account's.
    ``{"email": the confirmed address now, "pending": the address mailed, or None}``."""
    with transaction.atomic():
        lock_player(user.pk)
        user = User.objects.get(pk=user.pk)
        if is_guest(user):
            raise DomainError(
                "guest_account",
                "A guest account has no password, so no address: claim it first "
                "(POST /api/v1/players/me/claim/).",
            )
        if not user.check_password(password):
            raise DomainError("invalid_credentials", "The password is wrong.")
        if not email:
            user.email = ""
            user.save(update_fields=["email"])
            return {"email": "", "pending": None}
        email_confirmation(user=user, email=email, base_url=base_url, language=language)
        return {"email": user.email, "pending": email}


def email_confirmation(*, user: User, email: str, base_url: str, language: mail.Language) -> None:
    """Mail ``user`` a link that makes ``email`` their address (after the caller's commit; the
    caller has made sure the person may: their password, or the account just registered)."""
    mail.queue(mail.CONFIRM_EMAIL, user, email, base_url, language)


def email_confirm(*, token: str) -> User:
    """The account of ``token`` takes its address; ``link_invalid`` if the token is bad, expired,
    or spent (the account's address is no longer the one it had when the link was made)."""
    read = mail.read_email_token(token)
    if read is None:
        raise DomainError("link_invalid", LINK_INVALID)
    user_id, address, was = read
    with transaction.atomic():
        lock_player(user_id)
        user = User.objects.filter(pk=user_id, is_active=True).first()
        if user is None or mail.address_digest(user.email) != was:
            raise DomainError("link_invalid", LINK_INVALID)
        user.email = address
        user.save(update_fields=["email"])
    return user


def password_reset_request(*, email: str, base_url: str, language: mail.Language) -> None:
    """Have a reset link mailed to every active account whose confirmed address is ``email``
    (any case). The request does the same work whatever the address (one row written, one task
    handed): the worker looks the accounts up (``players.mail``), so neither the answer nor its
    time tells whether any has it."""
    with transaction.atomic():
        mail.ask_reset(email, base_url, language)


def password_reset(*, token: str, new_password: str) -> tuple[User, int]:
    """Set the password of ``token``'s account (``AUTH_PASSWORD_VALIDATORS``: 400 ``invalid``
    under ``new_password``) and end every session of it; (the account, how many ended).
    ``link_invalid`` if the token is bad, expired or spent."""
    user = mail.reset_account(token)
    if user is None:
        raise DomainError("link_invalid", LINK_INVALID)
    with transaction.atomic():
        lock_player(user.pk)
        user = mail.reset_account(token)  # again, locked: two resets with one link, one wins
        if user is None:
            raise DomainError("link_invalid", LINK_INVALID)
        ended = password_set(user=user, new_password=new_password)
    return user, ended
