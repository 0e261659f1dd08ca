"""Challenges: one player asks another (or a bot) to a game of two with settings of their choice.

- Made (``challenge_create``) to a player named by username: the challenged player is notified
  (``challenge``: inbox, player stream, webhooks, Web Push). Refused to oneself
  (``cannot_challenge_yourself``), to an unknown name (``not_found``), to a player kept apart by
  a block either way (``blocked``), with settings a game of two cannot have (``invalid``).
- A bot accepts at once: the game is made and started in the same call.
- Accepted by the challenged player: a private game of two is made with the settings, the
  challenger in seat 0, the challenged in seat 1, and started (a full game starts); the
  challenge links it, and the challenger is notified (``challenge_accepted``, which says the
  game started too: the challenger gets no ``player_joined`` or ``game_started`` of it, and a
  ``your_turn`` only when they play first). Declined by the
  challenged player, or cancelled by its challenger, it is over; one answered cannot be answered
  again (``challenge_not_open``).
- It expires ``expires_in`` seconds after it was made (default: a minute for live play, a day
  for correspondence); an expired one cannot be answered (``challenge_expired``).

Each notification row is written in the challenge's own transaction (the outbox), and handed to
the delivery after its commit, as a game write's are.
"""

from __future__ import annotations

from dataclasses import asdict
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.engine import limits
from games.engine.bots import LEVELS
from games.models import Challenge, ChallengeStatus, Game
from games.serializers import bank_of
from games.timekeeping import is_live
from notifications import delivery, outbox
from notifications.models import Kind, Notification
from players import safety
from players.models import is_bot_name
from players.selectors import player_named
from service import bots, lobby
from service.unit_of_work import game_write
from unoservice.errors import DomainError

# Settings of a game's creation body a challenge does not take: it is a game of two, seated
# by the challenge, private, dealt as any game is.
_NOT_TAKEN = (
    "max_players",
    "bots",
    "seed",
    "deck",
    "private",
    "teams",
    "bot_accounts",
    "bots_welcome",
)


def taken(settings: dict[str, Any], given: set[str]) -> dict[str, Any]:
    """The settings a challenge keeps of a validated creation body (``given``: the keys the
    caller sent; a key a challenge does not take is refused, its default dropped)."""
    refused = sorted(given & set(_NOT_TAKEN))
    if refused:
        raise DomainError(
            "invalid", f"A challenge sets no {', '.join(refused)}: it is a game of two."
        )
    return {name: value for name, value in settings.items() if name not in _NOT_TAKEN}


def _spec(settings: dict[str, Any]) -> lobby.NewGame:
    fields = {**settings, "bank": bank_of(settings.get("clock"))}
    fields.pop("clock", None)
    return lobby.NewGame(max_players=2, private=True, **fields)


def is_open(challenge: Challenge) -> bool:
    return challenge.status == ChallengeStatus.OPEN and challenge.expires_at > timezone.now()


def status_of(challenge: Challenge) -> str:
    """The status as it stands now: an open challenge past its time is expired."""
    if challenge.status == ChallengeStatus.OPEN and not is_open(challenge):
        return ChallengeStatus.EXPIRED
    return challenge.status


def ref(user: User) -> dict[str, Any]:
    return {"id": user.pk, "username": user.get_username()}


def _notify(player: User, kind: Kind, challenge: Challenge, by: User, **data: Any) -> None:
    """A notification row in the caller's transaction; delivered once it commits."""
    Notification.objects.create(
        player=player,
        kind=kind,
        game=challenge.game,
        version=0,
        at=timezone.now(),
        data={"challenge": str(challenge.pk), "by": ref(by), **data},
    )
    transaction.on_commit(delivery.queue_drain)


def _challenged(name: str) -> User:
    """The player named ``name``; the first built-in bot of a level (``bot-strong-1``) is there
    to challenge even before any game seated it (it was 404 on a new service).

    A name of the bots' form (``is_bot_name``) names a bot only: a person who registered one
    before such names were reserved (``players.models.BOT_NAME``) received the challenges meant
    for the bot; ``bot-<level>-1`` then names the level's first bot, whatever its number."""
    if not is_bot_name(name):
        return player_named(username=name)
    bot = User.objects.filter(username__iexact=name, bot__isnull=False).first()
    if bot is not None:
        return bot
    level = name.casefold().removeprefix("bot-").removesuffix("-1")
    if name.casefold() != f"bot-{level}-1" or level not in LEVELS:
        raise DomainError("not_found", f"No player is named {name!r}.")
    return bots.bot_user(level, set())


def challenge_create(
    *, challenger: User, to: str, settings: dict[str, Any], expires_in: int | None
) -> Challenge:
    challenged = _challenged(to)
    if challenged.pk == challenger.pk:
        raise DomainError("cannot_challenge_yourself", "You cannot challenge yourself.")
    if safety.apart(challenger.pk, challenged.pk):
        raise DomainError("blocked", "You and this player keep apart (a block): no challenge.")
    spec = _spec(settings)
    candidate, _ = lobby.game_build(player=challenger, spec=spec)  # the settings are checked
    bot = getattr(challenged, "bot", None)
    if expires_in is None:
        live = is_live(candidate)
        expires_in = (
            limits.CHALLENGE_LIVE_SECONDS if live else limits.CHALLENGE_CORRESPONDENCE_SECONDS
        )
    now = timezone.now()
    with transaction.atomic():
        challenge = Challenge.objects.create(
            challenger=challenger,
            challenged=challenged,
            settings=settings,
            expires_at=now + timedelta(seconds=expires_in),
        )
        if bot is not None:  # a bot accepts at once
            game = lobby.game_save(
                *lobby.game_build(player=challenger, spec=_with_bot(spec, bot.level)), starts=True
            )
            return _accepted(challenge, game)
        _notify(
            challenged,
            Kind.CHALLENGE,
            challenge,
            challenger,
            expires_at=challenge.expires_at.isoformat(),
        )
    return challenge


def _with_bot(spec: lobby.NewGame, level: str) -> lobby.NewGame:
    return lobby.NewGame(**{**asdict(spec), "bots": (level,)})


def _accepted(challenge: Challenge, game: Game) -> Challenge:
    challenge.status = ChallengeStatus.ACCEPTED
    challenge.game = game
    challenge.answered_at = timezone.now()
    challenge.save(update_fields=["status", "game", "answered_at"])
    return challenge


def _open_for_update(challenge_id: str, player: User) -> Challenge:
    """The challenge, locked, if the player is one of its two (else ``not_found``) and it is
    still open (else ``challenge_expired`` or ``challenge_not_open``)."""
    challenge = (
        Challenge.objects.select_for_update()
        .filter(Q(challenger=player) | Q(challenged=player), pk=challenge_id)
        .first()
    )
    if challenge is None:
        raise DomainError("not_found", "No such challenge.")
    now = status_of(challenge)
    if now == ChallengeStatus.EXPIRED:
        raise DomainError("challenge_expired", "The challenge has expired.")
    if now != ChallengeStatus.OPEN:
        raise DomainError("challenge_not_open", f"The challenge is {now}.")
    return challenge


def challenge_accept(*, player: User, challenge_id: str) -> Challenge:
    with transaction.atomic():
        challenge = _open_for_update(challenge_id, player)
        if challenge.challenged_id != player.pk:
            raise DomainError("permission_denied", "Only the player challenged accepts.")
        challenger = challenge.challenger
        if safety.apart(challenger.pk, player.pk):
            raise DomainError("blocked", "You and this player keep apart (a block).")
        game = lobby.game_create(player=challenger, spec=_spec(challenge.settings), starts=True)
        with game_write(game.pk) as write:
            # Before the seat: the challenger's one notice of the acceptance, the seat and the
            # start (``outbox.ChallengeAccepted``); a turn of theirs is told on its own.
            accepted_by = outbox.ChallengeAccepted(
                challenger.pk, str(challenge.pk), player.pk, player.get_username()
            )
            write.record(accepted_by)
            lobby.take_seat(write, player)  # the game is full: it starts
        return _accepted(challenge, write.game)


def challenge_decline(*, player: User, challenge_id: str) -> Challenge:
    """The challenged player declines (the challenger cancels: ``challenge_cancel``)."""
    return _close(player, challenge_id, ChallengeStatus.DECLINED)


def challenge_cancel(*, player: User, challenge_id: str) -> Challenge:
    """The challenger takes the challenge back before it is answered."""
    return _close(player, challenge_id, ChallengeStatus.CANCELLED)


def _close(player: User, challenge_id: str, status: ChallengeStatus) -> Challenge:
    with transaction.atomic():
        challenge = _open_for_update(challenge_id, player)
        cancelled = status == ChallengeStatus.CANCELLED
        answerer = challenge.challenger_id if cancelled else challenge.challenged_id
        if answerer != player.pk:
            who = "challenger cancels" if cancelled else "player challenged declines"
            raise DomainError("permission_denied", f"Only the {who}.")
        challenge.status = status
        challenge.answered_at = timezone.now()
        challenge.save(update_fields=["status", "answered_at"])
    return challenge


def close_between(blocker: User, other_id: int) -> int:
    """A block closes the open challenges between the two: those ``blocker`` received are
    declined, those it made cancelled (they stayed open in both lists, and only a decline
    would go through). Return how many."""
    now = timezone.now()
    open_ = Challenge.objects.filter(status=ChallengeStatus.OPEN)
    received = open_.filter(challenger_id=other_id, challenged=blocker).update(
        status=ChallengeStatus.DECLINED, answered_at=now
    )
    made = open_.filter(challenger=blocker, challenged_id=other_id).update(
        status=ChallengeStatus.CANCELLED, answered_at=now
    )
    return received + made


def challenges_of(player: User, *, every: bool = False, limit: int = 50) -> list[Challenge]:
    """The player's open challenges, made and received, newest first (``every``: whatever their
    status, the newest ``limit``)."""
    rows = Challenge.objects.filter(Q(challenger=player) | Q(challenged=player))
    if not every:
        rows = rows.filter(status=ChallengeStatus.OPEN, expires_at__gt=timezone.now())
    return list(rows.select_related("challenger", "challenged").order_by("-created_at")[:limit])
