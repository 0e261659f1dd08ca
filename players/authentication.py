"""``Authorization: Token <access token>`` (DRF authentication) for every API view.

The header's word is ``Token``, as the contract and the schema's ``tokenAuth`` say; ``Bearer`` is
refused with a 401 ``not_authenticated`` whose detail names the word to use (taken, it let clients
be written against a form the contract does not promise). A session's access token (``uat_…``,
``players.sessions``) authenticates until it expires, then answers 401 ``token_expired`` so a
client knows to refresh; while ``UNO_LEGACY_TOKENS`` is on, the DRF keys issued before sessions
existed still authenticate (one release), and once it is off they get 401 ``not_authenticated``.
``request.auth`` is the ``AccessToken`` row (its ``session``), or the legacy ``Token``. The
logout alone takes an expired access token too (``to_log_out``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication, get_authorization_header
from rest_framework.request import Request

# Read by DRF's settings at start-up, so the session machinery (which imports the error registry,
# which imports DRF's views) is imported when the first token comes, not here.
ACCESS_PREFIX = "uat_"  # players.sessions.ACCESS_PREFIX
KEYWORD = b"token"
# OAuth's word for the header, which clients reach for by habit: refused, with the word to use.
BEARER = b"bearer"
WRONG_WORD = (
    "Send the token as 'Authorization: Token <access token>': the word is Token, not Bearer."
)
EXPIRED = (
    "The access token has expired: trade the refresh token for a new pair "
    "(POST /api/v1/auth/refresh/), then send the call again."
)


class AccessTokenAuthentication(TokenAuthentication):
    keyword = "Token"

    def authenticate(self, request: Request) -> tuple[User, Any] | None:
        parts = get_authorization_header(request).split()
        if parts and parts[0].lower() == BEARER:
            raise exceptions.AuthenticationFailed(WRONG_WORD)
        if not parts or parts[0].lower() != KEYWORD:
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(
                "Invalid token header: the word Token, a space, then the token."
            )
        try:
            key = parts[1].decode()
        except UnicodeError as exc:
            raise exceptions.AuthenticationFailed("Invalid token header.") from exc
        if key.startswith(ACCESS_PREFIX):
            return self._access(key)
        if not settings.UNO_LEGACY_TOKENS:
            raise exceptions.AuthenticationFailed(
                "Invalid token (old tokens are no longer taken: sign in again)."
            )
        user, token = self.authenticate_credentials(key)
        return user, token

    def __init__(self, *, to_log_out: bool = False) -> None:
        """``to_log_out``: the logout's (``POST /api/v1/auth/logout/``, its view's
        ``get_authenticators``), which takes an access token that has expired too, while it is
        its live session's newest (``access_check``): a phone whose token expired ended nothing
        without refreshing first. That view does one thing, end the session the token names: a
        stolen expired token can do no more, and every other view answers ``token_expired``."""
        super().__init__()
        self.to_log_out = to_log_out

    def _access(self, key: str) -> tuple[User, Any]:
        from players.sessions import access_check

        try:
            row = access_check(key, to_log_out=self.to_log_out)
        except TimeoutError as exc:
            raise exceptions.AuthenticationFailed(EXPIRED, code="token_expired") from exc
        except LookupError as exc:
            raise exceptions.AuthenticationFailed("Invalid token.") from exc
        user = row.session.user
        if not user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        return user, row


class AccessTokenScheme(OpenApiAuthenticationExtension):
    """The schema's ``tokenAuth`` scheme (``unoservice.schema.TOKEN_SCHEME``), as DRF's token
    class had it: the operations' security names stay the same."""

    target_class = AccessTokenAuthentication
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        from unoservice.schema import TOKEN_SCHEME

        return dict(TOKEN_SCHEME)
