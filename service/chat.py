"""The table chat: send a message or a reaction, list what a viewer may see, mute, and the chat of
a game stream; bots answer a few reactions.

Not a write to the game: a chat message is a row of ``games.ChatMessage`` beside the log (the log
is the rules' fold), with the game's version when it was sent, so a replay shows it at its place.
The game row is not locked; a message takes two transaction-scoped advisory locks instead: its
author's (the rate limit counts their recent rows: two requests at once cannot both pass) and its
game's (a game's messages commit in the order of their ids, so a stream that read up to an id
never misses a lower one committing later).

Who sees what (``visible_to``): seated players see the ``players`` channel; a spectator sees it
too, and the ``spectators`` channel, in which only spectators write, and only in games created
with ``spectator_chat``. Everyone sees their own messages. A message whose author the viewer is
kept apart from (``players.safety.kept_apart``: a block, either way) is never shown to them, and a
viewer who muted the game's chat sees none of it.

After the commit (never inside the request's transaction): without PostgreSQL this process's
streams are told (on PostgreSQL a trigger's ``NOTIFY`` did it, streams/migrations/0005), and a
person's reaction that a bot answers (``chat_rules.BOT_ANSWERS``) gets its answer, by the bot seated
at ``message id % bots`` (deterministic, so tests know who answers), through the task
``games.chat_answer`` (in-process without a broker).
"""

from __future__ import annotations

import logging
import math
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from games import chat_rules, selectors
from games.models import ChatMessage, ChatMute, Game
from players import safety
from streams.frames import chat_frame
from streams.hub import publish_chat_committed
from streams.sse import ChatFeed
from unoservice.celery import app
from unoservice.errors import DomainError

log = logging.getLogger(__name__)

CHAT_ANSWER_TASK = "games.chat_answer"
# Advisory lock keys' first half: the author's (rate limit), the game's (commit order).
_AUTHOR_LOCK = zlib.crc32(b"uno-chat-author") & 0x7FFFFFFF
_GAME_LOCK = zlib.crc32(b"uno-chat-game") & 0x7FFFFFFF
# The rate limit's clock: tests replace it (``monkeypatch``) rather than sleep.
clock: Callable[[], datetime] = timezone.now


@dataclass(frozen=True)
class Said:
    """What a message says: a text (trimmed) or a reaction key, exactly one."""

    text: str = ""
    reaction: str = ""


def body_of(message: ChatMessage) -> dict[str, Any]:
    """A message as the list and the stream's ``chat`` frame show it: nothing of the game."""
    return {
        "id": message.id,
        "author": {"id": message.author_id, "username": message.author.username},
        "seat": message.seat,
        "channel": message.channel,
        "text": message.text or None,
        "reaction": message.reaction or None,
        "version": message.version,
        "at": message.created_at.isoformat(),
    }


# --- sending ------------------------------------------------------------------------------------


def _lock(first: int, second: int) -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [first, second])


def _game_key(game: Game) -> int:
    return zlib.crc32(str(game.pk).encode()) & 0x7FFFFFFF


def _check_rate(author_id: int, now: datetime) -> None:
    """429 ``chat_too_fast`` when the author sent ``RATE_MESSAGES`` in the last
    ``RATE_SECONDS``; Retry-After says when the oldest of them leaves the window."""
    window = timedelta(seconds=chat_rules.RATE_SECONDS)
    recent = list(
        ChatMessage.objects.filter(author_id=author_id, created_at__gt=now - window)
        .order_by("-created_at")
        .values_list("created_at", flat=True)[: chat_rules.RATE_MESSAGES]
    )
    if len(recent) < chat_rules.RATE_MESSAGES:
        return
    wait = max(1, math.ceil((recent[-1] + window - now).total_seconds()))
    raise DomainError(
        "chat_too_fast",
        f"At most {chat_rules.RATE_MESSAGES} messages in {chat_rules.RATE_SECONDS} s: "
        f"wait {wait} s.",
        extra={"retry_after": wait},
        headers={"Retry-After": str(wait)},
    )


def _channel_of(game: Game, player: User) -> tuple[int | None, str]:
    seat = selectors.seat_of(game, player)
    if seat is not None:
        return seat, chat_rules.PLAYERS
    if not game.spectator_chat:
        raise DomainError(
            "chat_not_allowed", "Only seated players chat in this game (no spectator_chat)."
        )
    return None, chat_rules.SPECTATORS


def chat_send(*, player: User, game_id: str, said: Said) -> dict[str, Any]:
    """``player`` says ``said`` at the table of ``game_id``: 201's body, the message."""
    game = selectors.get_game(game_id, player)
    seat, channel = _channel_of(game, player)
    silenced = safety.chat_silenced_until(player.pk)
    if silenced is not None:
        raise DomainError(
            "chat_silenced",
            f"Your chat is silenced until {silenced.isoformat()}.",
            extra={"until": silenced.isoformat()},
        )
    message = _store(game, player, seat, channel, said)
    return body_of(message)


def _store(
    game: Game,
    author: User,
    seat: int | None,
    channel: str,
    said: Said,
    reply_to: ChatMessage | None = None,
) -> ChatMessage:
    with transaction.atomic():
        _lock(_AUTHOR_LOCK, author.pk & 0x7FFFFFFF)
        now = clock()
        _check_rate(author.pk, now)
        _lock(_GAME_LOCK, _game_key(game))
        version = Game.objects.values_list("version", flat=True).get(pk=game.pk)
        message = ChatMessage.objects.create(
            game=game,
            author=author,
            seat=seat,
            channel=channel,
            text=said.text,
            reaction=said.reaction,
            version=version,
            reply_to=reply_to,
            created_at=now,
        )
        transaction.on_commit(partial(_after_commit, str(game.pk), message.pk, author.pk))
    return message


def _after_commit(game_id: str, message_id: int, author_id: int) -> None:
    """The chat's reactions to a committed message (a chat line is not a game write: it has no
    ``WriteFacts``; this is its one after-commit hook)."""
    if connection.vendor != "postgresql":
        publish_chat_committed(game_id)
    try:
        schedule_answer(message_id)
    except Exception:  # the message stands; a bot's answer is a nicety
        log.warning("could not queue the bots' answer to chat %s", message_id, exc_info=True)


def schedule_answer(message_id: int) -> None:
    """Queue the bots' answer to ``message_id`` (in-process without a broker)."""
    if app.conf.task_always_eager:
        bot_answer(message_id)
        return
    app.send_task(CHAT_ANSWER_TASK, args=[message_id], retry=False)


def answering_bot(message: ChatMessage, roster: list[dict[str, Any]]) -> tuple[int, int] | None:
    """The (seat, bot user id) that answers ``message``, or None: a person's reaction of
    ``BOT_ANSWERS`` in the players' channel is answered by the bot at ``id % bots``."""
    if message.reaction not in chat_rules.BOT_ANSWERS or message.channel != chat_rules.PLAYERS:
        return None
    bots = [(seat, int(entry["id"])) for seat, entry in enumerate(roster) if "bot" in entry]
    if not bots or any(user_id == message.author_id for _, user_id in bots):
        return None
    return bots[message.id % len(bots)]


def bot_answer(message_id: int) -> int | None:
    """The bot's answer to ``message_id`` (safe twice: one answer a message); its id or None."""
    message = ChatMessage.objects.select_related("game").filter(pk=message_id).first()
    if message is None:
        return None
    chosen = answering_bot(message, message.game.roster)
    if chosen is None or message.answers.exists():
        return None
    seat, bot_id = chosen
    bot = User.objects.get(pk=bot_id)
    said = Said(reaction=chat_rules.BOT_ANSWERS[message.reaction])
    try:
        answer = _store(message.game, bot, seat, chat_rules.PLAYERS, said, reply_to=message)
    except DomainError:  # the bot is over the rate limit: it stays quiet
        return None
    return answer.pk


# --- reading --------------------------------------------------------------------------------


def is_muted(game: Game, player: User) -> bool:
    return ChatMute.objects.filter(game=game, player=player).exists()


def _visible(game: Game, viewer: User) -> Q:
    """The messages of ``game`` ``viewer`` may see (mute aside)."""
    channels = [chat_rules.PLAYERS]
    if selectors.seat_of(game, viewer) is None:
        channels.append(chat_rules.SPECTATORS)
    shown = Q(channel__in=channels) | Q(author_id=viewer.pk)
    apart = safety.kept_apart(viewer.pk)
    return shown & ~Q(author_id__in=apart) if apart else shown


def chat_list(*, player: User, game_id: str, after: int, limit: int) -> dict[str, Any]:
    """The messages after id ``after`` the caller may see, oldest first (none when muted)."""
    game = selectors.get_game(game_id, player)
    muted = is_muted(game, player)
    messages: list[dict[str, Any]] = []
    if not muted:
        rows = (
            ChatMessage.objects.filter(game=game, id__gt=after)
            .filter(_visible(game, player))
            .select_related("author")
            .order_by("id")[:limit]
        )
        messages = [body_of(row) for row in rows]
    return {"messages": messages, "muted": muted}


def chat_mute(*, player: User, game_id: str, muted: bool) -> dict[str, Any]:
    """Mute (or unmute) the game's chat for the caller; safe twice."""
    game = selectors.get_game(game_id, player)
    if muted:
        ChatMute.objects.get_or_create(game=game, player=player)
    else:
        ChatMute.objects.filter(game=game, player=player).delete()
    return {"muted": muted}


def latest_id(game: Game) -> int:
    return (
        ChatMessage.objects.filter(game=game).order_by("-id").values_list("id", flat=True).first()
        or 0
    )


def stream_feed(game: Game, viewer: User, after: int | None) -> ChatFeed:
    """The chat of ``viewer``'s game stream: from id ``after`` (``chat_after``), or new messages
    only. Each read asks again who is muted and kept apart, so a mute counts at once."""
    game_id = game.pk

    def read(cursor: int) -> tuple[bytes, int] | None:
        game_row = Game.objects.only("id", "roster", "spectator_chat").get(pk=game_id)
        rows = list(
            ChatMessage.objects.filter(game_id=game_id, id__gt=cursor)
            .select_related("author")
            .order_by("id")[: chat_rules.PAGE.high]
        )
        if not rows:
            return None
        last = rows[-1].pk
        if is_muted(game_row, viewer):
            return b"", last
        shown = set(
            ChatMessage.objects.filter(game_id=game_id, id__gt=cursor, id__lte=last)
            .filter(_visible(game_row, viewer))
            .values_list("id", flat=True)
        )
        return b"".join(chat_frame(body_of(row)) for row in rows if row.pk in shown), last

    return ChatFeed(read=read, cursor=latest_id(game) if after is None else after)
