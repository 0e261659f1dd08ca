"""The HTTP API of an account's e-mail address and of a forgotten password's reset
(``players.recovery``). One thin APIView per operation."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import DisallowedHost
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from players.mail import EMAIL_LINK_SECONDS
from players.recovery import email_change, email_confirm, password_reset, password_reset_request
from players.serializers import (
    EmailChangeSerializer,
    EmailConfirmedSerializer,
    EmailConfirmSerializer,
    EmailStateSerializer,
    PasswordResetDoneSerializer,
    PasswordResetRequestSerializer,
    PasswordResetSerializer,
)
from unoservice import api
from unoservice.api import APIView
from unoservice.errors import DomainError
from unoservice.schema import error_response, errors_for
from unoservice.throttling import signin_failures

TAGS = ["players"]
EXAMPLE_TOKEN = "eyJ1Ijo3LCJlIjoiYWxpY2VAZXhhbXBsZS5jb20iLCJ3IjoiIn0:1tQ2cN:7x0m2…"
LINK_INVALID = error_response(
    "The link's token is malformed, expired or spent (`link_invalid`); or the body is "
    "malformed (`invalid`).",
    "invalid",
    "link_invalid",
)


def public_url(request: Request) -> str:
    """Where the mails' links go: ``UNO_PUBLIC_URL``, or the origin the request named, if
    ``ALLOWED_HOSTS`` admits its host (another is refused here, 400 ``invalid``: no link may
    point at a host of the caller's choosing)."""
    if settings.UNO_PUBLIC_URL:
        return str(settings.UNO_PUBLIC_URL)
    try:
        return request.build_absolute_uri("/").rstrip("/")
    except DisallowedHost:
        raise DomainError(
            "invalid", "The request's Host names no host of this server (ALLOWED_HOSTS)."
        ) from None


class EmailChangeApi(APIView):
    """Open to a bot account's token too: the password, not the token, makes the change
    (``players.scopes``)."""

    throttle_scope = "mails"

    @extend_schema(
        operation_id="players_me_email",
        summary="Set or remove the caller's e-mail address",
        description=(
            "With the account's password. A new address is mailed a link "
            "(`<web client>/#/email/<token>`, for "
            f"{EMAIL_LINK_SECONDS // 3600} hours) and becomes the account's when the link is "
            "opened (`POST /api/v1/auth/email/confirm/`): 202 with the address the account has "
            'until then (`email`) and the one mailed (`pending`). `""` removes the account\'s '
            "address at once (200, nothing mailed): its password can then not be reset. A "
            "wrong password is 400 `invalid_credentials`, a guest (no password) 409 "
            "`guest_account`; nothing changes and nothing is mailed."
        ),
        tags=TAGS,
        request=EmailChangeSerializer,
        responses={
            200: EmailStateSerializer,
            202: EmailStateSerializer,
            **errors_for(
                "invalid", "invalid_credentials", "not_authenticated", "guest_account", "throttled"
            ),
        },
        examples=[
            OpenApiExample(
                "Set",
                value={"email": "alice@example.com", "password": "correct-horse-battery"},
                request_only=True,
            ),
            OpenApiExample(
                "Mailed",
                value={"email": "", "pending": "alice@example.com"},
                response_only=True,
                status_codes=[202],
            ),
            OpenApiExample(
                "Removed",
                value={"email": "", "pending": None},
                response_only=True,
                status_codes=[200],
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        data = api.validated(EmailChangeSerializer, request.data)
        state = email_change(user=api.caller(request), base_url=public_url(request), **data)
        answer = status.HTTP_202_ACCEPTED if state["pending"] else status.HTTP_200_OK
        return Response(EmailStateSerializer(state).data, status=answer)


class EmailConfirmApi(APIView):
    authentication_classes: list[Any] = []  # the link is opened anywhere, signed in or not
    permission_classes = [AllowAny]
    throttle_scope = "token"

    @extend_schema(
        operation_id="auth_email_confirm",
        summary="Confirm an e-mail address",
        description=(
            "The token of the link mailed by `POST /api/v1/players/me/email/`: the address "
            "becomes its account's. A link works once, and not after another address was "
            "confirmed."
        ),
        tags=TAGS,
        auth=[],
        request=EmailConfirmSerializer,
        responses={200: EmailConfirmedSerializer, 400: LINK_INVALID, **errors_for("throttled")},
        examples=[
            OpenApiExample("Confirm", value={"token": EXAMPLE_TOKEN}, request_only=True),
            OpenApiExample(
                "Confirmed",
                value={"email": "alice@example.com", "username": "alice"},
                response_only=True,
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        user = email_confirm(**api.validated(EmailConfirmSerializer, request.data))
        body = {"email": user.email, "username": user.get_username()}
        return Response(EmailConfirmedSerializer(body).data)


class PasswordResetRequestApi(APIView):
    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]
    throttle_scope = "mails"  # per client address: anyone may ask

    @extend_schema(
        operation_id="auth_password_reset",
        summary="Ask for a forgotten password's reset",
        description=(
            "Every account whose confirmed address this is (any case) is mailed a link "
            "(`<web client>/#/reset/<token>`) to choose a new password, for "
            f"{settings.PASSWORD_RESET_TIMEOUT // 3600} hours. The answer is 202 `{{}}` whether "
            "or not an account has the address, after the same work (a worker looks the "
            "address up, then mails): neither it nor its time tells who plays here."
        ),
        tags=TAGS,
        auth=[],
        request=PasswordResetRequestSerializer,
        responses={202: None, **errors_for("invalid", "throttled")},
        examples=[
            OpenApiExample(
                "Ask", value={"email": "alice@example.com", "language": "en"}, request_only=True
            )
        ],
    )
    def post(self, request: Request) -> Response:
        data = api.validated(PasswordResetRequestSerializer, request.data)
        password_reset_request(base_url=public_url(request), **data)
        return Response({}, status=status.HTTP_202_ACCEPTED)


class PasswordResetApi(APIView):
    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]
    throttle_scope = "token"

    @extend_schema(
        operation_id="auth_password_reset_confirm",
        summary="Set a new password with a reset link",
        description=(
            "The token of the link mailed by `POST /api/v1/auth/password-reset/`, and the new "
            "password (the registration's rules: 400 `invalid`, its `fields` under "
            "`new_password`). The password is set and every session of the account ends "
            "(`sessions_ended`); the caller is not signed in: it signs in with the new "
            "password (`POST /api/v1/auth/token/`). A link works once, and not after the "
            "password or the address changed."
        ),
        tags=TAGS,
        auth=[],
        request=PasswordResetSerializer,
        responses={200: PasswordResetDoneSerializer, 400: LINK_INVALID, **errors_for("throttled")},
        examples=[
            OpenApiExample(
                "Reset",
                value={
                    "token": "7-cgx7a9-0f1e2d3c4b5a69788796a5b4c3d2e1f0",
                    "new_password": "staple-lantern-orbit",
                },
                request_only=True,
            ),
            OpenApiExample(
                "Done", value={"username": "alice", "sessions_ended": 2}, response_only=True
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        user, ended = password_reset(**api.validated(PasswordResetSerializer, request.data))
        # Whoever opened the link holds the account's mailbox: the owner, not the guesser whose
        # failures may have made the name refuse sign-ins. They sign in with the new password at
        # once (the guesser, failing again, is limited again).
        signin_failures(user.get_username()).clear()
        body = {"username": user.get_username(), "sessions_ended": ended}
        return Response(PasswordResetDoneSerializer(body).data)
