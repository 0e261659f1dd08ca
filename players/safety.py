"""Keeping players apart and quiet: blocks (both ways) and staff's chat silences. The chat, the
quick match and the challenges ask here; nothing here writes the chat."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.db.models import Q
from django.utils import timezone

from players.models import Block, ChatSilence


def kept_apart(player_id: int) -> set[int]:
    """The players ``player_id`` blocked or was blocked by: whose chat each side does not see."""
    rows = Block.objects.filter(Q(blocker_id=player_id) | Q(blocked_id=player_id)).values_list(
        "blocker_id", "blocked_id"
    )
    return {other for pair in rows for other in pair if other != player_id}


def apart(first: int, second: int) -> bool:
    """Whether either of the two blocked the other."""
    return Block.objects.filter(
        Q(blocker_id=first, blocked_id=second) | Q(blocker_id=second, blocked_id=first)
    ).exists()


def any_apart(player_id: int, others: Iterable[int]) -> bool:
    """Whether ``player_id`` and any of ``others`` are kept apart."""
    return bool(kept_apart(player_id) & set(others))


def chat_silenced_until(player_id: int) -> datetime | None:
    """Until when staff silenced the player's chat, or None (not silenced now)."""
    latest = (
        ChatSilence.objects.filter(player_id=player_id, until__gt=timezone.now())
        .order_by("-until")
        .values_list("until", flat=True)
        .first()
    )
    return latest
