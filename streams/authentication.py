"""``?ticket=`` sign-in for the streams (DRF authentication), beside the Authorization header."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication
from rest_framework.request import Request

from streams.tickets import ticket_redeem

# A browser's EventSource retries the same URL, spent ticket and all: this tells its client what
# to do instead (a ticket stays single-use, docs/deploy.md).
SPENT = (
    "The stream ticket is used, expired or unknown: a ticket opens one connection. Get a new "
    "one (POST /api/v1/auth/stream-ticket/) and open the stream again with ?after=<the last id "
    "received>."
)


class StreamTicketAuthentication(BaseAuthentication):
    """Redeems the ``ticket`` query parameter; a used, expired or unknown one is refused (401).
    ``request.auth`` is the ``Redeemed`` ticket (its session)."""

    def authenticate(self, request: Request) -> tuple[User, Any] | None:
        ticket = request._request.GET.get("ticket")
        if ticket is None:
            return None
        redeemed = ticket_redeem(ticket)
        if redeemed is None:
            raise exceptions.AuthenticationFailed(SPENT)
        return redeemed.player, redeemed

    def authenticate_header(self, request: Request) -> str:
        return "Ticket"


class StreamTicketScheme(OpenApiAuthenticationExtension):
    """The schema's security scheme for ``?ticket=`` (an API key in the query)."""

    target_class = StreamTicketAuthentication
    name = "streamTicket"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {"type": "apiKey", "in": "query", "name": "ticket"}
