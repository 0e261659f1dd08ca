"""Keeping players apart and quiet: blocks (both ways), staff's chat silences, and reports.
The chat, the seating, quick match, rematches and the tournaments' pairing ask here; nothing
here writes the chat."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from datetime import datetime

from django.contrib.auth.models import User
from django.db.models import Q
from django.utils import timezone

from games.selectors import get_game
from players.models import Block, ChatSilence, Report
from players.selectors import player_get
from unoservice.errors import DomainError


def kept_apart(player_id: int) -> set[int]:
    """The players ``player_id`` blocked or was blocked by: whose chat each side does not see."""
    rows = Block.objects.filter(Q(blocker_id=player_id) | Q(blocked_id=player_id)).values_list(
        "blocker_id", "blocked_id"
    )
    return {other for pair in rows for other in pair if other != player_id}


def apart_among(players: Collection[int]) -> dict[int, set[int]]:
    """The blocks among ``players`` (a tournament's entrants), each pair under both players: what
    the tournaments' pairing keeps apart (``games.pairing``), in one query."""
    rows = Block.objects.filter(blocker_id__in=players, blocked_id__in=players).values_list(
        "blocker_id", "blocked_id"
    )
    kept: dict[int, set[int]] = {}
    for first, second in rows:
        kept.setdefault(first, set()).add(second)
        kept.setdefault(second, set()).add(first)
    return kept


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


def block(blocker: User, blocked_id: int) -> tuple[Block, bool]:
    """``blocker`` blocks the player ``blocked_id``: the row, and whether it is new (blocking
    twice is one block)."""
    if blocked_id == blocker.pk:
        raise DomainError("invalid", "You cannot block yourself.")
    blocked = player_get(player_id=blocked_id)
    return Block.objects.get_or_create(blocker=blocker, blocked=blocked)


def unblock(blocker: User, blocked_id: int) -> None:
    """The block ends (nothing happens when there was none); ``not_found`` for no such player,
    as ``block`` answers."""
    if not Block.objects.filter(blocker=blocker, blocked_id=blocked_id).delete()[0]:
        player_get(player_id=blocked_id)


def blocks_of(blocker: User) -> list[Block]:
    """The players ``blocker`` blocked, newest first."""
    return list(Block.objects.filter(blocker=blocker).select_related("blocked").order_by("-pk"))


def report(
    reporter: User,
    reported_id: int,
    reason: str,
    note: str = "",
    game_id: str | None = None,
    seq: int | None = None,
) -> Report:
    """A report for staff; the game, if named, must be one the reporter may see, and the seq
    one of its events."""
    if reported_id == reporter.pk:
        raise DomainError("invalid", "You cannot report yourself.")
    reported = player_get(player_id=reported_id)
    game = None
    if game_id is not None:
        game = get_game(game_id, reporter)
        if seq is not None and not 1 <= seq <= game.version:
            raise DomainError("seq_out_of_range", f"The game has events 1 to {game.version}.")
    elif seq is not None:
        raise DomainError("invalid", "A seq needs its game.")
    return Report.objects.create(
        reporter=reporter, reported=reported, reason=reason, note=note, game=game, seq=seq
    )


def reports_by(reporter: User) -> list[Report]:
    """The reports ``reporter`` made, newest first (nobody but staff sees the others')."""
    return list(Report.objects.filter(reporter=reporter).select_related("reported"))
