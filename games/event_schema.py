"""The documented shape of every event type: the event log as a discriminated union on ``type``.

Each event is ``{"seq", "type", "seat", "at", "data"}``; ``data`` depends on ``type``. Fields a
viewer may not see are left out (marked "hidden" below) until the game is finished.
"""

from __future__ import annotations

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from games.engine.events import EVENT_TYPES

CARDS = serializers.ListField(child=serializers.CharField())


def _cards(help_text: str, required: bool = True) -> serializers.ListField:
    return serializers.ListField(
        child=serializers.CharField(), help_text=help_text, required=required
    )


class _Data(serializers.Serializer):
    pass


class GameStartedData(_Data):
    players = serializers.IntegerField()
    options = serializers.DictField(help_text="target_score, max_timeouts and the house rules.")
    seed = serializers.IntegerField(required=False, help_text="Hidden until the game ends.")


class RoundStartedData(_Data):
    number = serializers.IntegerField()
    dealer = serializers.IntegerField()
    seats = serializers.ListField(
        child=serializers.IntegerField(), help_text="The deal order, first player first."
    )
    given = serializers.BooleanField(help_text="Dealt from a deck given at creation.")
    hand = _cards("The viewer's own 7 dealt cards.", required=False)
    deck = _cards("The whole deck, top first: hidden until the game ends.", required=False)


class StarterReturnedData(_Data):
    card = serializers.CharField(help_text="A wild-draw4 turned as starter goes back.")
    position = serializers.IntegerField(required=False, help_text="Hidden until the game ends.")


class StarterTurnedData(_Data):
    card = serializers.CharField()


class PendingData(_Data):
    type = serializers.ChoiceField(choices=["color", "play_drawn", "wild_draw4", "draw_penalty"])
    seat = serializers.IntegerField()
    card = serializers.CharField(required=False, help_text="play_drawn: shown to that seat only.")
    amount = serializers.IntegerField(required=False)
    from_seat = serializers.IntegerField(required=False)
    previous_color = serializers.CharField(required=False)
    draw_card = serializers.CharField(required=False)


class TurnChangedData(_Data):
    seat = serializers.IntegerField(help_text="The seat that must act now.")
    direction = serializers.ChoiceField(choices=[1, -1])
    pending = PendingData(allow_null=True)


class CardPlayedData(_Data):
    cards = _cards("The cards played, the last on top.")
    color = serializers.CharField(help_text="The colour in play after this card.")
    uno = serializers.BooleanField()
    target = serializers.IntegerField(required=False, help_text="seven_zero: the swap target.")
    jump_in = serializers.BooleanField(required=False)


class CardsDrawnData(_Data):
    count = serializers.IntegerField()
    reason = serializers.ChoiceField(
        choices=["draw", "take", "penalty", "starter", "caught", "bluff", "challenge"]
    )
    cards = _cards("Shown to the drawing seat only (and to all once finished).", required=False)
    auto = serializers.BooleanField(required=False, help_text="The server drew on a timeout.")


class PileReshuffledData(_Data):
    draw_pile_count = serializers.IntegerField()
    draw_pile = _cards("The new order: hidden until the game ends.", required=False)


class PassedData(_Data):
    auto = serializers.BooleanField(required=False)


class ChallengedData(_Data):
    target = serializers.IntegerField(help_text="The seat that played the wild-draw4.")
    guilty = serializers.BooleanField()
    color = serializers.CharField(help_text="The colour before the wild-draw4.")
    hand = _cards("The challenged hand: shown to the challenger and the challenged.", False)


class ColorChosenData(_Data):
    color = serializers.CharField()
    auto = serializers.BooleanField(required=False)


class UnoCaughtData(_Data):
    target = serializers.IntegerField()


class HandsSwappedData(_Data):
    target = serializers.IntegerField()


class HandsRotatedData(_Data):
    direction = serializers.ChoiceField(choices=[1, -1])


class TimedOutData(_Data):
    count = serializers.IntegerField(help_text="Consecutive timeouts of the seat.")


class ForfeitedData(_Data):
    reason = serializers.ChoiceField(choices=["timeout", "resign"])
    draw_pile_count = serializers.IntegerField()
    draw_pile = _cards("The new order: hidden until the game ends.", required=False)


class RoundEndedData(_Data):
    number = serializers.IntegerField()
    winner_seat = serializers.IntegerField(allow_null=True)
    points = serializers.ListField(child=serializers.IntegerField())
    hands = serializers.ListField(child=CARDS, help_text="Every hand, revealed at scoring.")


class GameEndedData(_Data):
    winner_seat = serializers.IntegerField()
    reason = serializers.ChoiceField(choices=["target", "forfeit"])


DATA_SERIALIZERS: dict[str, type[_Data]] = {
    "game_started": GameStartedData,
    "round_started": RoundStartedData,
    "starter_returned": StarterReturnedData,
    "starter_turned": StarterTurnedData,
    "turn_changed": TurnChangedData,
    "card_played": CardPlayedData,
    "cards_drawn": CardsDrawnData,
    "pile_reshuffled": PileReshuffledData,
    "passed": PassedData,
    "challenged": ChallengedData,
    "color_chosen": ColorChosenData,
    "uno_said": _Data,
    "uno_caught": UnoCaughtData,
    "hands_swapped": HandsSwappedData,
    "hands_rotated": HandsRotatedData,
    "timed_out": TimedOutData,
    "went_out": _Data,
    "forfeited": ForfeitedData,
    "round_ended": RoundEndedData,
    "game_ended": GameEndedData,
}
assert set(DATA_SERIALIZERS) == set(EVENT_TYPES)


def _type_field(type_: str) -> serializers.CharField:
    """``type`` pinned to its one value, so exactly one schema of the union matches an event (a
    free string would let several match, and the ``oneOf`` fail validation). A pattern rather
    than a one-value enum: drf-spectacular would make 20 enum components of those."""

    @extend_schema_field({"type": "string", "pattern": f"^{type_}$"})
    class TypeField(serializers.CharField):
        pass

    return TypeField(help_text=f"Always '{type_}'.")


def _event_serializer(type_: str, data: type[_Data]) -> type[serializers.Serializer]:
    name = "".join(part.title() for part in type_.split("_")) + "Event"
    fields = {
        "seq": serializers.IntegerField(),
        "type": _type_field(type_),
        "seat": serializers.IntegerField(allow_null=True),
        "at": serializers.DateTimeField(),
        "data": data(),
    }
    return type(name, (serializers.Serializer,), fields)


EVENT_SERIALIZERS = {t: _event_serializer(t, d) for t, d in DATA_SERIALIZERS.items()}

EventUnionSerializer = PolymorphicProxySerializer(
    component_name="Event",
    serializers=EVENT_SERIALIZERS,  # type: ignore[arg-type]
    resource_type_field_name="type",
    many=True,
)
