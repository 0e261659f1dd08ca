"""A player's notifications (the outbox), and where they are delivered: webhooks and Web Push.

A ``Notification`` row is written in the same transaction as the events that cause it, so a
notification exists exactly when its cause committed. ``dispatched`` is the outbox's state: a
row not yet dispatched waits for the drain (``notifications.delivery.drain``), which hands it,
once, to the player's webhooks (a ``WebhookDelivery`` row per attempt) and push subscriptions.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.fields.json import KeyTransform

from games.models import Game


class Kind(models.TextChoices):
    YOUR_TURN = "your_turn"
    DEADLINE_SOON = "deadline_soon"
    GAME_STARTED = "game_started"
    GAME_FINISHED = "game_finished"
    PLAYER_JOINED = "player_joined"
    INVITED = "invited"
    CHALLENGE = "challenge"  # a player challenged the notified one
    CHALLENGE_ACCEPTED = "challenge_accepted"  # the notified player's challenge was accepted
    TOURNAMENT_STARTING = "tournament_starting"
    TOURNAMENT_TABLE = "tournament_table"  # data.game: the table's game
    TOURNAMENT_FINISHED = "tournament_finished"
    # A waiting game the notified player sat at will not start: its host's account went.
    GAME_ABANDONED = "game_abandoned"


class Notification(models.Model):
    id = models.BigAutoField(primary_key=True)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=32, choices=Kind.choices)
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, null=True, blank=True, related_name="notifications"
    )
    version = models.PositiveIntegerField(
        default=0, help_text="The game's version when the notification was written."
    )
    at = models.DateTimeField()
    read = models.BooleanField(default=False)
    data = models.JSONField(default=dict, blank=True)
    dispatched = models.BooleanField(
        default=False, help_text="Handed to the player's webhooks and push subscriptions."
    )

    class Meta:
        ordering = ["-id"]
        indexes = [
            models.Index(fields=["player", "-id"], name="notification_inbox"),
            # The unread count the page asks on every notification: read by the unread alone,
            # however many a player has read.
            models.Index(
                fields=["player", "-id"], name="notification_unread", condition=models.Q(read=False)
            ),
            # A game's unread turn notices of a player: those a newer one makes read
            # (``outbox.superseded``), found at once however many other notices are unread.
            models.Index(
                fields=["player", "game"],
                name="notification_unread_turn",
                condition=models.Q(read=False, kind__in=["your_turn", "deadline_soon"]),
            ),
            models.Index(
                fields=["id"],
                name="notification_undispatched",
                condition=models.Q(dispatched=False),
            ),
            # The games a player came to (``services.games_it_came_to``, at a claim or a
            # deletion): a waiting game it left keeps no seat to find it by.
            models.Index(
                KeyTransform("id", KeyTransform("player", "data")),
                name="notification_joined_player",
                condition=models.Q(kind="player_joined"),
            ),
            models.Index(
                KeyTransform("id", KeyTransform("by", "data")),
                name="notification_invited_by",
                condition=models.Q(kind="invited"),
            ),
        ]
        constraints = [
            # One reminder per turn: the task, the sweep and the lazy path may all try.
            models.UniqueConstraint(
                fields=["game", "version", "player"],
                condition=models.Q(kind="deadline_soon"),
                name="notification_one_reminder_a_turn",
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.id} for {self.player_id}"


class Webhook(models.Model):
    id = models.BigAutoField(primary_key=True)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhooks"
    )
    url = models.URLField(max_length=2000)
    kinds = models.JSONField(default=list, help_text="The kinds delivered.")
    secret = models.CharField(max_length=64, help_text="whsec_ and the base64 of the key.")
    created_at = models.DateTimeField(auto_now_add=True)
    failing_since = models.DateTimeField(
        null=True, blank=True, help_text="The first failure since the last success."
    )
    disabled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"Webhook {self.id} of {self.player_id}"


class DeliveryStatus(models.TextChoices):
    PENDING = "pending"
    SUCCEEDED = "succeeded"
    FAILED = "failed"


class WebhookDelivery(models.Model):
    """One attempt to deliver a notification to a webhook (``pending``: not made yet, due at
    ``at``)."""

    id = models.BigAutoField(primary_key=True)
    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    notification = models.ForeignKey(
        Notification, on_delete=models.CASCADE, related_name="deliveries"
    )
    attempt = models.PositiveSmallIntegerField()
    at = models.DateTimeField(help_text="When the attempt was made, or is due while pending.")
    status = models.CharField(
        max_length=16, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    response_code = models.PositiveSmallIntegerField(null=True, blank=True)
    next_retry_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [
            models.Index(fields=["webhook", "-id"], name="delivery_log"),
            models.Index(fields=["at"], name="delivery_due", condition=models.Q(status="pending")),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["webhook", "notification", "attempt"], name="delivery_unique_attempt"
            )
        ]

    def __str__(self) -> str:
        return f"Delivery {self.notification_id}#{self.attempt} to {self.webhook_id}"


class PushSubscription(models.Model):
    """A browser's ``PushSubscription``: where its push service accepts messages for it."""

    id = models.BigAutoField(primary_key=True)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=2000, unique=True)
    p256dh = models.CharField(max_length=200, help_text="The browser's P-256 key, base64url.")
    auth = models.CharField(max_length=64, help_text="The authentication secret, base64url.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"Push subscription {self.id} of {self.player_id}"


class PushChoice(models.Model):
    """The kinds a player's browsers are pushed (``PUT /api/v1/push/kinds/``); without a row, the
    service's default (``notifications.delivery.PUSHED``). The inbox and webhooks are not
    affected: the inbox gets every kind, a webhook the kinds it was made with."""

    player = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="push_choice",
    )
    kinds = models.JSONField(default=list, help_text="The kinds pushed; empty: none.")
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Push kinds of {self.player_id}"


class Watching(models.Model):
    """A player has the game open: a stream of it from one web process (``process``), kept
    until ``until``, which that process pushes on while the stream lasts (``service.attention``).
    A live game sends no ``your_turn`` or ``deadline_soon`` to a player watching it: they see their
    turn come. A process that dies leaves rows that lapse at ``until``."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    process = models.CharField(max_length=32)
    until = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["player", "game", "until"], name="watching_player_game"),
            models.Index(fields=["process"], name="watching_process"),
        ]
