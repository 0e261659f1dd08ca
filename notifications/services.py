"""The services of notifications: reading the inbox, webhooks and push subscriptions."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q

from games.models import Challenge
from notifications import http, limits, signing, webpush
from notifications.models import Kind, Notification, PushChoice, PushSubscription, Webhook
from players.locks import lock_player
from unoservice.errors import DomainError

Player = User


def mark_read(*, player: Player, ids: Sequence[int] | None = None) -> int:
    """Mark the caller's notifications ``ids`` read (all of them with None); return how many
    changed. Ids of other players' notifications change nothing."""
    unread = Notification.objects.filter(player=player, read=False)
    if ids is not None:
        unread = unread.filter(pk__in=ids)
    return unread.update(read=True)


def rename_in_notifications(user: User, games: Sequence[uuid.UUID]) -> int:
    """``user``'s name as it is now in the other players' notifications that name them (a game's
    ``others``, a seat taken, a winner, an invitation's or a challenge's ``by``): a deleted
    account's own name, or a claimed guest's ``guest-…`` one, stayed there, in the inbox, the
    player stream and the export. The rows are those of ``games`` (those ``user`` sat at, the
    waiting ones it left included where the caller knows them), of the waiting games it left
    before (``games_it_came_to``) and of their challenges; return how many changed."""
    counterparts = Challenge.objects.filter(Q(challenger=user) | Q(challenged=user))
    games = [*games, *games_it_came_to(user)]
    rows = (
        Notification.objects.filter(
            Q(game_id__in=games)
            | Q(
                kind__in=(Kind.CHALLENGE, Kind.CHALLENGE_ACCEPTED),
                player_id__in=counterparts.values("challenger_id").union(
                    counterparts.values("challenged_id")
                ),
            )
        )
        .exclude(player=user)
        .only("id", "data")
    )
    changed = []
    for row in rows.iterator():
        data = _renamed(row.data, user.pk, user.get_username())
        if data != row.data:
            row.data = data
            changed.append(row)
    Notification.objects.bulk_update(changed, ["data"], batch_size=500)
    return len(changed)


def games_it_came_to(user: User) -> list[uuid.UUID]:
    """The games whose notifications tell of ``user`` taking a seat (``player_joined``) or
    inviting someone (``invited``): a waiting game it left has no seat of its own, and its
    notifications were the only ones not found by ``user``'s seats. Read once an account, at a
    claim or a deletion, by the two partial indexes of those kinds' data."""
    told = Notification.objects.filter(
        Q(kind=Kind.PLAYER_JOINED, data__player__id=user.pk)
        | Q(kind=Kind.INVITED, data__by__id=user.pk),
        game__isnull=False,
    )
    return list(told.order_by().values_list("game_id", flat=True).distinct())


def _renamed(value: Any, user_id: int, name: str) -> Any:
    """``value`` (a notification's data) with every reference to ``user_id`` (``{"id",
    "username"}``) saying ``name``."""
    if isinstance(value, list):
        return [_renamed(item, user_id, name) for item in value]
    if not isinstance(value, dict):
        return value
    renamed = {key: _renamed(item, user_id, name) for key, item in value.items()}
    if renamed.get("id") == user_id and "username" in renamed:
        renamed["username"] = name
    return renamed


def webhook_create(*, player: Player, url: str, kinds: Sequence[str] | None = None) -> Webhook:
    """A webhook for the caller's notifications of ``kinds`` (every kind by default)."""
    http.check_url(url)
    with transaction.atomic():
        # The player's row is locked so that two requests cannot both take the last place.
        lock_player(player.pk)
        if Webhook.objects.filter(player=player).count() >= limits.WEBHOOKS_PER_PLAYER:
            raise DomainError(
                "limit_reached", f"A player has at most {limits.WEBHOOKS_PER_PLAYER} webhooks."
            )
        chosen = list(dict.fromkeys(kinds)) if kinds else list(Kind.values)
        return Webhook.objects.create(
            player=player, url=url, kinds=chosen, secret=signing.new_secret()
        )


def webhook_delete(*, player: Player, webhook_id: int) -> None:
    deleted, _ = Webhook.objects.filter(player=player, pk=webhook_id).delete()
    if not deleted:
        raise DomainError("not_found", "No such webhook.")


def webhook_enable(*, player: Player, webhook_id: int) -> Webhook:
    """Turn the caller's webhook on again after it was turned off (every delivery failed for
    ``UNO_WEBHOOK_DISABLE_AFTER``): its URL, kinds and secret as they were, its failures
    forgotten; it gets the notifications written from now on. On already: nothing changes."""
    with transaction.atomic():
        webhook = Webhook.objects.select_for_update().filter(player=player, pk=webhook_id).first()
        if webhook is None:
            raise DomainError("not_found", "No such webhook.")
        if webhook.disabled_at is not None:
            http.check_url(webhook.url)  # the address may lead somewhere refused by now
            webhook.disabled_at = webhook.failing_since = None
            webhook.save(update_fields=["disabled_at", "failing_since"])
    return webhook


def subscription_create(
    *, player: Player, endpoint: str, p256dh: str, auth: str
) -> PushSubscription:
    """Subscribe a browser; its endpoint, subscribed again (by this player or another who signs
    in on it), keeps one subscription with the keys it gives now."""
    webpush.keys()
    webpush.check_keys(p256dh, auth)
    http.check_url(endpoint)
    with transaction.atomic():
        lock_player(player.pk)
        mine = PushSubscription.objects.filter(player=player).exclude(endpoint=endpoint)
        if mine.count() >= limits.PUSH_SUBSCRIPTIONS_PER_PLAYER:
            raise DomainError(
                "limit_reached",
                f"A player has at most {limits.PUSH_SUBSCRIPTIONS_PER_PLAYER} push subscriptions.",
            )
        subscription, _ = PushSubscription.objects.update_or_create(
            endpoint=endpoint, defaults={"player": player, "p256dh": p256dh, "auth": auth}
        )
    return subscription


def subscription_delete(*, player: Player, subscription_id: int) -> None:
    deleted, _ = PushSubscription.objects.filter(player=player, pk=subscription_id).delete()
    if not deleted:
        raise DomainError("not_found", "No such push subscription.")


def push_kinds_choose(*, player: Player, kinds: Sequence[str]) -> None:
    """From now on push ``player``'s browsers the notifications of ``kinds`` only (none: the
    inbox and webhooks still get them)."""
    wanted = set(kinds)
    chosen = [kind for kind in Kind.values if kind in wanted]
    PushChoice.objects.update_or_create(player=player, defaults={"kinds": chosen})
