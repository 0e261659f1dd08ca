"""Input validation and the documented shapes of every games endpoint.

Input serializers validate bodies and query strings (unknown fields are refused). Output
serializers document the responses for the OpenAPI schema; the responses themselves are built by
the selectors from the engine's views.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers
from rest_framework.settings import api_settings

from games.engine import CARD_CODES, COLORS, HOUSE_RULES
from games.event_schema import EventUnionSerializer
from games.models import GameStatus, SeatStatus

# Choice sets shared by several fields: unoservice.settings names each one once for the schema.
CARD_CHOICES = sorted(CARD_CODES)
GAME_STATUSES = list(GameStatus.values)
SEAT_STATUSES = list(SeatStatus.values)
MAX_INT = 2**31 - 1


class StrictSerializer(serializers.Serializer):
    """Refuses fields it does not know, so a typo is an error rather than silently ignored."""

    def to_internal_value(self, data: Any) -> Any:
        # Checked here rather than in validate(): a nested serializer (``rules``) has no
        # ``initial_data``, and its unknown keys must be refused too.
        if isinstance(data, Mapping):
            unknown = sorted(str(key) for key in set(data) - set(self.fields))
            if unknown:
                message = f"Unknown field(s): {', '.join(unknown)}."
                raise serializers.ValidationError({api_settings.NON_FIELD_ERRORS_KEY: [message]})
        return super().to_internal_value(data)


class StrictIntegerField(serializers.IntegerField):
    """A JSON number only: DRF's own also takes ``"4"`` (a string) and ``true``."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int | float):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """``true`` or ``false`` only: DRF's own also takes ``"yes"``, ``"1"`` and ``1``."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


# --- creating a game ---------------------------------------------------------------------------


class RulesSerializer(StrictSerializer):
    """House rules, all off by default (see the rule book)."""

    scoring = serializers.ChoiceField(choices=["winner", "penalty"], required=False)
    stacking = StrictBooleanField(required=False)
    reverse_bounce = StrictBooleanField(required=False, help_text="Needs stacking.")
    draw_until_playable = StrictBooleanField(required=False)
    force_play = StrictBooleanField(required=False)
    jump_in = StrictBooleanField(required=False)
    seven_zero = StrictBooleanField(required=False)
    multi_play = StrictBooleanField(required=False)
    no_action_finish = StrictBooleanField(required=False)
    elimination = StrictBooleanField(required=False)
    uno_penalty = StrictIntegerField(required=False, min_value=0, max_value=20)
    bluff_penalty = StrictIntegerField(required=False, min_value=0, max_value=20)


assert set(RulesSerializer().fields) == set(HOUSE_RULES)


class GameCreateSerializer(StrictSerializer):
    max_players = StrictIntegerField(min_value=2, max_value=10, default=4)
    target_score = StrictIntegerField(min_value=1, max_value=1_000_000, default=500)
    turn_timeout = StrictIntegerField(
        min_value=1, max_value=2_592_000, default=86400, help_text="Seconds a seat has to act."
    )
    max_timeouts = StrictIntegerField(
        min_value=1, max_value=100, default=3, help_text="Consecutive timeouts before a forfeit."
    )
    rules = RulesSerializer(required=False)
    seed = StrictIntegerField(
        required=False,
        min_value=0,
        max_value=2**63 - 1,
        help_text=(
            "Staff only (403 `permission_denied` otherwise): makes every shuffle of the game "
            "reproducible. Kept secret until the game ends."
        ),
    )
    deck = serializers.ListField(
        child=serializers.ChoiceField(choices=CARD_CHOICES),
        required=False,
        min_length=108,
        max_length=108,
        help_text="Staff only: the first round's deck, top card first.",
    )


# --- actions -----------------------------------------------------------------------------------


class _Action(StrictSerializer):
    expected_version = StrictIntegerField(
        required=False,
        min_value=0,
        max_value=MAX_INT,
        help_text="Refuse the action (409 version_conflict) if the game has moved past this.",
    )


def _action_field(name: str) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=[name])


class PlayActionSerializer(_Action):
    action = _action_field("play")
    card = serializers.ChoiceField(choices=CARD_CHOICES, required=False)
    cards = serializers.ListField(
        child=serializers.ChoiceField(choices=CARD_CHOICES),
        required=False,
        min_length=1,
        max_length=108,
        help_text="multi_play only: several cards of one number, instead of 'card'.",
    )
    color = serializers.ChoiceField(
        choices=list(COLORS), required=False, help_text="Required with a wild."
    )
    uno = StrictBooleanField(required=False, help_text="Say UNO with this play.")
    target = StrictIntegerField(
        required=False, min_value=0, max_value=9, help_text="seven_zero: the seat a 7 swaps with."
    )


class DrawActionSerializer(_Action):
    action = _action_field("draw")


class PassActionSerializer(_Action):
    action = _action_field("pass")


class ChallengeActionSerializer(_Action):
    action = _action_field("challenge")


class AcceptActionSerializer(_Action):
    action = _action_field("accept")


class ColorActionSerializer(_Action):
    action = _action_field("color")
    color = serializers.ChoiceField(choices=list(COLORS))


class UnoActionSerializer(_Action):
    action = _action_field("uno")


class CatchActionSerializer(_Action):
    action = _action_field("catch")
    target = StrictIntegerField(min_value=0, max_value=9)


ACTION_SERIALIZERS: dict[str, type[_Action]] = {
    "play": PlayActionSerializer,
    "draw": DrawActionSerializer,
    "pass": PassActionSerializer,
    "challenge": ChallengeActionSerializer,
    "accept": AcceptActionSerializer,
    "color": ColorActionSerializer,
    "uno": UnoActionSerializer,
    "catch": CatchActionSerializer,
}

# --- the actions' fast path --------------------------------------------------------------------
# Building a DRF serializer deep-copies its fields: about a tenth of an action's time. A body that
# plainly fits its action's serializer (JSON types exactly as declared) is accepted by checks
# derived from the same fields; any other body goes through the serializer, which accepts it or
# says what is wrong. The checks never accept what the serializer refuses (tests/games).

ValueCheck = Callable[[Any], bool]


def _bounded_int(field: StrictIntegerField) -> ValueCheck:
    low, high = field.min_value, field.max_value

    def check(value: Any) -> bool:
        return (
            type(value) is int and (low is None or value >= low) and (high is None or value <= high)
        )

    return check


def _one_of(field: serializers.ChoiceField) -> ValueCheck:
    choices = frozenset(key for key in field.choices if isinstance(key, str))
    return lambda value: type(value) is str and value in choices


def _list_of(field: serializers.ListField) -> ValueCheck | None:
    child = field.child
    if type(child) is not serializers.ChoiceField or child.allow_blank:
        return None
    item = _one_of(child)
    low, high = field.min_length or 0, field.max_length

    def check(value: Any) -> bool:
        return (
            type(value) is list
            and low <= len(value)
            and (high is None or len(value) <= high)
            and all(item(card) for card in value)
        )

    return check


def _value_check(field: serializers.Field) -> ValueCheck | None:
    """A check that accepts only values ``field`` takes unchanged, or None if there is none."""
    if field.default is not serializers.empty or field.allow_null:
        return None
    if type(field) is StrictBooleanField:
        return lambda value: type(value) is bool
    if type(field) is StrictIntegerField:
        return _bounded_int(field)
    if type(field) is serializers.ChoiceField and not field.allow_blank:
        return _one_of(field)
    if type(field) is serializers.ListField:
        return _list_of(field)
    return None


@dataclass(frozen=True)
class _ActionShape:
    checks: dict[str, ValueCheck]
    required: frozenset[str]

    def fits(self, body: Mapping[str, Any]) -> bool:
        checks = self.checks
        return self.required.issubset(body) and all(
            name in checks and checks[name](value) for name, value in body.items()
        )


def _shape_of(serializer_class: type[_Action]) -> _ActionShape | None:
    fields = serializer_class().fields
    checks: dict[str, ValueCheck] = {}
    for name, field in fields.items():
        check = _value_check(field)
        if check is None:
            return None
        checks[name] = check
    required = frozenset(name for name, field in fields.items() if field.required)
    return _ActionShape(checks, required)


_ACTION_SHAPES = {name: _shape_of(cls) for name, cls in ACTION_SERIALIZERS.items()}


def valid_action(body: Mapping[str, Any]) -> dict[str, Any]:
    """The action ``body`` as its serializer validates it; raises its ValidationError if refused.

    ``body["action"]`` must name an action of ``ACTION_SERIALIZERS``.
    """
    shape = _ACTION_SHAPES[body["action"]]
    if shape is not None and shape.fits(body):
        return {name: list(value) if type(value) is list else value for name, value in body.items()}
    serializer = ACTION_SERIALIZERS[body["action"]](data=body)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


ActionSerializer = PolymorphicProxySerializer(
    component_name="Action",
    serializers=ACTION_SERIALIZERS,  # type: ignore[arg-type]
    resource_type_field_name="action",
)

# The entries of legal_actions have the same shapes, without expected_version.
LegalActionSerializer = PolymorphicProxySerializer(
    component_name="LegalAction",
    serializers=ACTION_SERIALIZERS,  # type: ignore[arg-type]
    resource_type_field_name="action",
    many=True,
)


# --- query strings -----------------------------------------------------------------------------


class GameListQuerySerializer(StrictSerializer):
    status = serializers.ChoiceField(choices=GAME_STATUSES, required=False)
    mine = serializers.BooleanField(required=False, default=False)
    my_turn = serializers.BooleanField(required=False, default=False)
    page = serializers.IntegerField(required=False, min_value=1, max_value=MAX_INT)
    page_size = serializers.IntegerField(required=False, min_value=1, max_value=100)


class EventsQuerySerializer(StrictSerializer):
    after = serializers.IntegerField(required=False, default=0, min_value=0, max_value=MAX_INT)
    limit = serializers.IntegerField(required=False, default=100, min_value=1, max_value=1000)
    wait = serializers.IntegerField(
        required=False,
        default=0,
        min_value=0,
        max_value=30,
        help_text="Hold the request up to this many seconds until there is an event after 'after'.",
    )


class ReplayQuerySerializer(StrictSerializer):
    at = serializers.IntegerField(min_value=1, max_value=MAX_INT)


# --- responses (documentation) -----------------------------------------------------------------


class PlayerRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()


class SettingsSerializer(serializers.Serializer):
    max_players = serializers.IntegerField()
    target_score = serializers.IntegerField()
    turn_timeout = serializers.IntegerField()
    max_timeouts = serializers.IntegerField()
    rules = RulesSerializer()


class SeatViewSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = PlayerRefSerializer()
    hand_count = serializers.IntegerField()
    score = serializers.IntegerField()
    uno = serializers.BooleanField(help_text="Said UNO and holds one card.")
    catchable = serializers.BooleanField(help_text="Holds one card without saying UNO: catch it.")
    status = serializers.ChoiceField(choices=SEAT_STATUSES)
    timeouts = serializers.IntegerField(help_text="Consecutive timeouts so far.")
    hand = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="Finished games only."
    )


class PendingSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=["color", "play_drawn", "wild_draw4", "draw_penalty"])
    seat = serializers.IntegerField(help_text="The seat the game waits for.")
    card = serializers.CharField(required=False, help_text="play_drawn: shown to that seat only.")
    amount = serializers.IntegerField(required=False, help_text="Cards owed.")
    from_seat = serializers.IntegerField(required=False)
    previous_color = serializers.CharField(required=False)
    draw_card = serializers.CharField(required=False)


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    dealer = serializers.IntegerField()
    current_seat = serializers.IntegerField()
    direction = serializers.ChoiceField(choices=[1, -1])
    top_card = serializers.CharField(allow_null=True)
    color = serializers.CharField(allow_null=True)
    draw_pile = serializers.IntegerField(help_text="Cards in the draw pile.")
    discard_pile = serializers.IntegerField(help_text="Cards in the discard pile.")
    pending = PendingSerializer(allow_null=True)
    turn_deadline = serializers.DateTimeField(allow_null=True, required=False)


class YouSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    hand = serializers.ListField(child=serializers.CharField())
    legal_actions = LegalActionSerializer


class LastRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    winner_seat = serializers.IntegerField(allow_null=True)
    points = serializers.ListField(child=serializers.IntegerField())
    hands = serializers.DictField(child=serializers.ListField(child=serializers.CharField()))


class RevealedSerializer(serializers.Serializer):
    draw_pile = serializers.ListField(child=serializers.CharField())
    seed = serializers.IntegerField()


class GameViewSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=GAME_STATUSES)
    version = serializers.IntegerField(help_text="The seq of the last event.")
    settings = SettingsSerializer()
    created_by = serializers.IntegerField(required=False)
    created_at = serializers.DateTimeField(required=False)
    seats = SeatViewSerializer(many=True)
    round = RoundSerializer(allow_null=True)
    you = YouSerializer(allow_null=True)
    last_round = LastRoundSerializer(allow_null=True)
    winner_seat = serializers.IntegerField(allow_null=True)
    revealed = RevealedSerializer(required=False, help_text="Finished games only.")


class SeatSummarySerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = PlayerRefSerializer()
    status = serializers.ChoiceField(choices=SEAT_STATUSES)


class GameSummarySerializer(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=GAME_STATUSES)
    version = serializers.IntegerField()
    settings = SettingsSerializer()
    seats = SeatSummarySerializer(many=True)
    current_seat = serializers.IntegerField(allow_null=True)
    turn_deadline = serializers.DateTimeField(allow_null=True)
    winner_seat = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()


class GamePageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = GameSummarySerializer(many=True)


class EventPageSerializer(serializers.Serializer):
    events = EventUnionSerializer
    version = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
