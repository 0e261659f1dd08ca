"""The shapes of the notifications API: inputs (strict: unknown fields are refused) and answers
(for the schema)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.engine.limits import MAX_INT
from notifications import limits
from notifications.delivery import PUSHED, STANDS_FOR
from notifications.models import DeliveryStatus, Kind
from unoservice.api import StrictBooleanField, StrictCharField, StrictIntegerField, StrictSerializer

KIND_CHOICES = Kind.choices


class NotificationSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="Increasing: a later notification has a larger id.")
    kind = serializers.ChoiceField(choices=KIND_CHOICES)
    game = serializers.UUIDField(allow_null=True)
    at = serializers.DateTimeField()
    read = serializers.BooleanField()
    data = serializers.DictField(  # type: ignore[assignment]  # a field, popped by the metaclass
        help_text="By kind: the seat it is about (`seat`), the game's `version`, a turn's "
        "`deadline`, the game's `others` (`[{id, username}]`: the players of its other seats, "
        "on `your_turn`, `deadline_soon` and `game_started`), who won a finished game "
        "(`winner`: `{id, username}`, `winner_seat`, with teams `winner_team`; `won`: whether "
        "the seat, or its team, did), the `player` who joined or invited (`by`). Never a card."
    )


class NotificationPageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = NotificationSerializer(many=True)


class PageQuerySerializer(StrictSerializer):
    page = serializers.IntegerField(required=False, min_value=1, max_value=MAX_INT)
    page_size = serializers.IntegerField(
        required=False, min_value=limits.PAGE.low, max_value=limits.PAGE.high
    )


class NotificationListQuerySerializer(PageQuerySerializer):
    unread = serializers.BooleanField(required=False, default=False)


class MarkReadSerializer(StrictSerializer):
    ids = serializers.ListField(
        child=StrictIntegerField(min_value=1, max_value=2**63 - 1),
        min_length=limits.READ_IDS.low,
        max_length=limits.READ_IDS.high,
        required=False,
    )
    all = StrictBooleanField(required=False, help_text="true: every notification of the caller.")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("ids" in attrs) == bool(attrs.get("all")):
            raise serializers.ValidationError('Send either "ids" or "all": true.')
        return attrs


class MarkedSerializer(serializers.Serializer):
    marked = serializers.IntegerField(
        help_text="How many notifications were unread and now are read."
    )


# What a webhook or a push choice takes besides its kinds (``delivery.STANDS_FOR``), in words.
TAKEN_TOO = "; ".join(
    f"`{kind}` takes `{notice}` too, which is written in its place to a challenger"
    for notice, kind in STANDS_FOR.items()
)


class WebhookCreateSerializer(StrictSerializer):
    url = StrictCharField(max_length=limits.URL_LENGTH, help_text="http:// or https://")
    kinds = serializers.ListField(
        child=serializers.ChoiceField(choices=KIND_CHOICES),
        min_length=1,
        max_length=len(KIND_CHOICES),
        required=False,
        help_text=f"The kinds delivered; every kind by default ({TAKEN_TOO}).",
    )


class WebhookSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.CharField()
    kinds = serializers.ListField(child=serializers.ChoiceField(choices=KIND_CHOICES))
    created_at = serializers.DateTimeField()
    disabled_at = serializers.DateTimeField(
        allow_null=True, help_text="Set when every delivery failed for 3 days."
    )


class WebhookCreatedSerializer(WebhookSerializer):
    secret = serializers.CharField(
        help_text="`whsec_` and the base64 of the signing key: shown this once."
    )


class WebhookListSerializer(serializers.Serializer):
    results = WebhookSerializer(many=True)


class DeliverySerializer(serializers.Serializer):
    notification = serializers.IntegerField(help_text="The notification's id (`webhook-id`).")
    attempt = serializers.IntegerField(help_text="1 for the first attempt.")
    at = serializers.DateTimeField(help_text="When it was made, or is due while pending.")
    status = serializers.ChoiceField(choices=DeliveryStatus.choices)
    response_code = serializers.IntegerField(
        allow_null=True, help_text="The receiver's status; null when it did not answer in time."
    )
    next_retry_at = serializers.DateTimeField(allow_null=True)


class DeliveryPageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = DeliverySerializer(many=True)


class PushKeySerializer(serializers.Serializer):
    public_key = serializers.CharField(
        help_text="The VAPID public key (base64url): the browser's applicationServerKey."
    )


class PushKeysSerializer(StrictSerializer):
    p256dh = StrictCharField(max_length=200)
    auth = StrictCharField(max_length=64)


# The kinds pushed until a player chooses, as the schema's texts name them.
PUSHED_BY_DEFAULT = ", ".join(f"`{kind}`" for kind in Kind.values if kind in PUSHED)


class PushKindsChooseSerializer(StrictSerializer):
    kinds = serializers.ListField(
        child=serializers.ChoiceField(choices=KIND_CHOICES),
        allow_empty=True,
        max_length=len(KIND_CHOICES),
        help_text=(
            "The kinds to push; empty: none (the inbox and webhooks still get every one). "
            f"{TAKEN_TOO[0].upper()}{TAKEN_TOO[1:]}."
        ),
    )


class PushKindsSerializer(serializers.Serializer):
    kinds = serializers.ListField(
        child=serializers.ChoiceField(choices=KIND_CHOICES),
        help_text="The kinds pushed to the caller's browsers, in the kinds' order.",
    )
    default = serializers.BooleanField(
        help_text=f"The service's choice (the caller chose none): {PUSHED_BY_DEFAULT}."
    )


class PushSubscriptionCreateSerializer(StrictSerializer):
    """A browser's ``PushSubscription.toJSON()``."""

    endpoint = StrictCharField(max_length=limits.URL_LENGTH)
    keys = PushKeysSerializer()
    expirationTime = StrictIntegerField(  # the browser's own name
        required=False, allow_null=True, min_value=0, max_value=2**63 - 1
    )


class PushSubscriptionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
