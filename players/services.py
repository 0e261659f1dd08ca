"""Writes of the players app: registration and API tokens.

Every refusal is a ``DomainError`` with the API contract's code, so callers other than the HTTP
API (management commands, tests) get the same rules and the same errors.
"""

from __future__ import annotations

from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, models, transaction
from rest_framework.authtoken.models import Token

from unoservice.errors import DomainError


def _username_taken(username: str) -> DomainError:
    return DomainError("username_taken", f"The username {username!r} is taken.")


def _validate_username(user: User) -> None:
    """Run the username field's own rules: not blank, at most 150, letters, digits and @.+-_."""
    field = User._meta.get_field("username")
    assert isinstance(field, models.CharField)
    try:
        field.clean(user.username, user)
    except DjangoValidationError as exc:
        raise DomainError("invalid", "username: " + " ".join(exc.messages)) from exc


def player_register(*, username: str, password: str) -> User:
    """Create a player after Django's username rules and ``AUTH_PASSWORD_VALIDATORS``.

    A username is taken when another one equals it ignoring case (as Django's own
    ``UserCreationForm`` decides), so ``Alice`` and ``alice`` cannot both exist.
    """
    user = User(username=User.normalize_username(username))
    _validate_username(user)
    try:
        validate_password(password, user=user)
    except DjangoValidationError as exc:
        raise DomainError("invalid", "password: " + " ".join(exc.messages)) from exc
    if User.objects.filter(username__iexact=user.username).exists():
        raise _username_taken(user.username)
    user.set_password(password)
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError as exc:  # a concurrent registration of the same name won the race
        raise _username_taken(user.username) from exc
    return user


def token_issue(*, username: str, password: str) -> Token:
    """The player's API token, created on first use; the same token until it is revoked."""
    user = authenticate(username=username, password=password)
    if not isinstance(user, User):  # wrong credentials, or an inactive account
        raise DomainError(
            "invalid_credentials", "Unable to log in with the given username and password."
        )
    token, _ = Token.objects.get_or_create(user=user)
    return token


def token_revoke(*, user: User) -> None:
    """Delete the player's token: it authenticates nothing from now on. Idempotent."""
    Token.objects.filter(user=user).delete()
