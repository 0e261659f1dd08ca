"""Players with real sessions' access tokens, and clients that send them as
``Authorization: Token …`` (``legacy_token_of``: the old DRF key, still taken while
``UNO_LEGACY_TOKENS``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from players.sessions import session_start

# The password of players who sign in with one (it passes the service's password validators).
PASSWORD = "correct-horse-battery-9"


def client_with(token: str) -> APIClient:
    """A client that sends ``token``."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def token_of(user: User) -> str:
    """An access token of a new session of ``user`` (as signing in makes one)."""
    return session_start(user=user).access


def legacy_token_of(user: User) -> str:
    """The old never-expiring DRF key of ``user``, as issued before sessions."""
    token, _ = Token.objects.get_or_create(user=user)
    return token.key


def client_for(user: User) -> APIClient:
    """A client signed in as ``user`` with a real session's access token."""
    return client_with(token_of(user))


@dataclass
class Player:
    user: User
    client: APIClient
    token: str

    @property
    def id(self) -> int:
        return self.user.pk

    def fresh_client(self) -> APIClient:
        """Another client with the same token (one per thread)."""
        return client_with(self.token)


def player_for(user: User) -> Player:
    token = token_of(user)
    return Player(user, client_with(token), token)


# The fixtures ``make_player`` of the suites: a Player (games, ops) or a bare User (players).
MakePlayer = Callable[..., Player]
MakeUser = Callable[..., User]
