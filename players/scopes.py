"""A bot account's token is scoped to play: one DRF permission, in the default permission
classes (``REST_FRAMEWORK["DEFAULT_PERMISSION_CLASSES"]``), so every view is covered.

A view that changes the account itself (not its games) says so with ``changes_account(request)``
(``AccountChange`` gives the usual answer: every method but the safe ones); a bot account's
token calling it gets 403 ``bot_account_scope`` and nothing changes. What counts as an account
change, decided once here:

- account changes, refused: claiming the account (``players/me/claim/``; a bot account is never a
  guest, so it could not anyway) and subscribing a browser to Web Push (``POST
  push/subscriptions/``: it ties a person's device to the account; a program has none). Any
  later call that changes the account's credentials or identity (a username change) without
  asking for its password takes ``AccountChange`` too.
- changes the account's password confirms, allowed: changing the password
  (``players/me/password/``, with the current one) and deleting the account
  (``players/me/delete/``, with the password), and setting its e-mail address
  (``players/me/email/``, with the password). The token alone makes none of them, so a leaked
  one cannot; without them the owner could neither rotate a leaked password nor erase the
  account.
- play, allowed: games, actions, challenges, chat, the streams and stream tickets, the inbox,
  vacations, blocks and reports; webhooks (a program may be told of its turns by one); reading
  its profile; ``POST players/me/bot-account/`` again (it changes nothing).
- sessions, allowed: listing them, logging out, and ending any of its sessions. Every token of a
  bot account is a bot account's token (the program's and its owner's sign-ins alike), so this is
  the one way to cut off a token that leaked; ending a session gives no access to anything.
"""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request

SCOPE = (
    "A bot account's token is scoped to play: it changes nothing of the account but its own "
    "profile (no claim, no Web Push subscription)."
)


class AccountChange:
    """A view that changes the account itself; a bot account's token may not call it
    (``PlayScope``). Override ``changes_account`` where only some calls do."""

    def changes_account(self, request: Request) -> bool:
        return request.method not in SAFE_METHODS


class PlayScope(BasePermission):
    """Refuses a bot account's token the views that change the account (``AccountChange``)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if not isinstance(view, AccountChange) or not view.changes_account(request):
            return True
        user = request.user
        if user.is_authenticated and hasattr(user, "bot_account"):
            # Imported here: DRF reads its settings (this class) while the registry, which
            # imports DRF's views, is being imported (as players.authentication does).
            from unoservice.errors import DomainError

            raise DomainError("bot_account_scope", SCOPE)
        return True
