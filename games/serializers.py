"""Input validation and the documented shapes of every games endpoint.

Input serializers validate bodies and query strings (unknown fields are refused). Output
serializers document the responses for the OpenAPI schema; the responses themselves are built by
the selectors from the engine's views.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from games import chat_rules
from games.engine import CARD_CODES, COLORS, DECK, limits
from games.engine.options import PRESETS, RULES, HouseRule
from games.engine.shapes import BOT_LEVELS
from games.event_schema import ref
from games.models import (
    ChallengeStatus,
    GameStatus,
    SeatStatus,
    TournamentFormat,
    TournamentStatus,
)
from unoservice.api import (
    StrictBooleanField,
    StrictCharField,
    StrictDateTimeField,
    StrictIntegerField,
    StrictSerializer,
)

# Choice sets shared by several fields: unoservice.settings names each one once for the schema.
CARD_CHOICES = sorted(CARD_CODES)
GAME_STATUSES = list(GameStatus.values)
SEAT_STATUSES = list(SeatStatus.values)
TOURNAMENT_STATUSES = list(TournamentStatus.values)
TOURNAMENT_FORMATS = list(TournamentFormat.values)
MAX_INT = limits.MAX_INT


# --- creating a game ---------------------------------------------------------------------------


def _rule_field(rule: HouseRule) -> serializers.Field:
    """The request field of a house rule, from its definition (``engine.options.RULES``)."""
    if rule.choices:
        return serializers.ChoiceField(
            choices=list(rule.choices), required=False, help_text=rule.help
        )
    if rule.bound is not None:
        return StrictIntegerField(
            required=False,
            min_value=rule.bound.low,
            max_value=rule.bound.high,
            help_text=rule.help,
        )
    return StrictBooleanField(required=False, help_text=rule.help)


class RulesSerializer(StrictSerializer):
    """House rules, all off by default (see the rule book)."""

    def get_fields(self) -> dict[str, serializers.Field]:
        # One field per house rule of ``Options``, in its order: a rule is defined there once.
        return {rule.name: _rule_field(rule) for rule in RULES}


def _bounded(bound: limits.Bound, **kwargs: Any) -> StrictIntegerField:
    return StrictIntegerField(min_value=bound.low, max_value=bound.high, **kwargs)


class ClockSerializer(StrictSerializer):
    """The move clock (``turn_timeout`` a turn) or a bank clock (the rule book's "Clocks for
    correspondence play"); seconds."""

    type = serializers.ChoiceField(choices=["move", "bank"])
    initial = _bounded(
        limits.BANK_INITIAL,
        required=False,
        help_text=f"Bank only: each seat's bank at start (default {limits.DEFAULT_BANK_INITIAL}).",
    )
    increment = _bounded(
        limits.BANK_INCREMENT,
        required=False,
        help_text=(
            "Bank only: what a seat gains after each of its moves, and its bank after a timeout "
            f"(default {limits.DEFAULT_BANK_INCREMENT})."
        ),
    )
    max = _bounded(
        limits.BANK_MAX,
        required=False,
        help_text=f"Bank only: the most a bank holds (default {limits.DEFAULT_BANK_MAX}).",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["type"] == "move" and len(attrs) > 1:
            raise serializers.ValidationError(
                "The move clock takes no initial, increment or max: turn_timeout sets it."
            )
        return attrs


def bank_of(clock: Mapping[str, Any] | None) -> tuple[int, int, int] | None:
    """A validated ``clock`` as the bank's (initial, increment, max), or None (the move clock)."""
    if clock is None or clock["type"] != "bank":
        return None
    return (
        clock.get("initial", limits.DEFAULT_BANK_INITIAL),
        clock.get("increment", limits.DEFAULT_BANK_INCREMENT),
        clock.get("max", limits.DEFAULT_BANK_MAX),
    )


BOTS_WELCOME_HELP = (
    "Bot accounts (players' programs) may take a free seat themselves, by joining or by quick "
    "match (with `bots_welcome: true`); without it they are seated only by the host (by name), "
    "a challenge or an invite code. Shown in `settings` when true, and compared by quick match."
)


class GameCreateSerializer(StrictSerializer):
    max_players = _bounded(limits.PLAYERS, default=limits.DEFAULT_PLAYERS)
    target_score = _bounded(limits.TARGET_SCORE, default=limits.DEFAULT_TARGET_SCORE)
    turn_timeout = _bounded(
        limits.TURN_TIMEOUT,
        default=limits.DEFAULT_TURN_TIMEOUT,
        help_text="Seconds a seat has to act.",
    )
    max_timeouts = _bounded(
        limits.MAX_TIMEOUTS,
        default=limits.DEFAULT_MAX_TIMEOUTS,
        help_text="Consecutive timeouts before a forfeit.",
    )
    rules = RulesSerializer(
        required=False, help_text="House rules; each one given overrides the preset's."
    )
    preset = serializers.ChoiceField(
        choices=list(PRESETS),
        default="official",
        help_text=(
            "The house rules to start from: official (none), party (stacking, jump_in, "
            "seven_zero, draw_until_playable) or house (every house rule that combines with all "
            "the others: " + ", ".join(sorted(PRESETS["house"])) + "; elimination is left out "
            "with teams)."
        ),
    )
    teams = _bounded(
        limits.TEAMS,
        required=False,
        help_text=(
            "Partners: seats split into teams by seat number modulo teams; max_players a "
            "multiple of it, 2 or more per team. Not with elimination."
        ),
    )
    seed = _bounded(
        limits.SEED,
        required=False,
        help_text=(
            "Staff only (403 `permission_denied` otherwise): makes every shuffle of the game "
            "reproducible. Kept secret until the game ends."
        ),
    )
    deck = serializers.ListField(
        child=serializers.ChoiceField(choices=CARD_CHOICES),
        required=False,
        min_length=len(DECK),
        max_length=len(DECK),
        help_text="Staff only: the first round's deck, top card first.",
    )
    bots = serializers.ListField(
        child=serializers.ChoiceField(choices=BOT_LEVELS),
        required=False,
        max_length=limits.PLAYERS.high - 1,
        help_text="Bot levels for the next seats; a game they fill starts at once.",
    )
    bot_takeover = StrictBooleanField(
        required=False, help_text="A seat that forfeits is played on by a basic bot."
    )
    bot_accounts = serializers.ListField(
        child=StrictCharField(max_length=150),
        required=False,
        max_length=limits.PLAYERS.high - 1,
        help_text=(
            "Usernames of bot accounts (players' programs, docs/bot-api.md) to seat after the "
            "creator, before the bots: each takes its seat at once and is told so (`invited`); "
            "400 `not_a_bot_account` for a name that is not one."
        ),
    )
    bots_welcome = StrictBooleanField(required=False, help_text=BOTS_WELCOME_HELP)
    private = StrictBooleanField(
        required=False,
        help_text=(
            "Left out of the lobby and seen by its seated players only (404 for others); "
            "joined by the view's invite_code (POST /api/v1/games/join-by-code/)."
        ),
    )
    clock = ClockSerializer(
        required=False, help_text='The clock; {"type": "move"} (turn_timeout) by default.'
    )
    spectator_chat = StrictBooleanField(
        required=False,
        help_text=(
            "Spectators may chat, in the `spectators` channel, which seated players do not see "
            "(default false: spectators only read the players' chat)."
        ),
    )


class JoinByCodeSerializer(StrictSerializer):
    code = StrictCharField(
        min_length=limits.INVITE_CODE_INPUT.low,
        max_length=limits.INVITE_CODE_INPUT.high,
        help_text="A private game's invite_code (any case; spaces and dashes are ignored).",
    )


class MatchmakingSerializer(StrictSerializer):
    players = _bounded(limits.PLAYERS, help_text="The number of seats of the game.")
    rules = RulesSerializer(
        required=False, help_text="House rules; each one given overrides the preset's."
    )
    preset = serializers.ChoiceField(
        choices=list(PRESETS), default="official", help_text="As when creating a game."
    )
    target_score = _bounded(limits.TARGET_SCORE, default=limits.DEFAULT_TARGET_SCORE)
    turn_timeout = _bounded(
        limits.TURN_TIMEOUT,
        default=limits.DEFAULT_TURN_TIMEOUT,
        help_text="Seconds a seat has to act.",
    )
    fill_with_bots_after = _bounded(
        limits.FILL_WITH_BOTS_AFTER,
        required=False,
        help_text=(
            "Seconds from now after which basic bots fill the free seats and the game starts "
            "(the earliest time any of its players asked)."
        ),
    )
    bots_welcome = StrictBooleanField(
        default=False,
        help_text=(
            "Match among the games where bot accounts (players' programs) are welcome, and let "
            "them join the one made. A bot account's quick match must send true (403 "
            "`bots_not_welcome` otherwise); people who leave it false never meet one this way."
        ),
    )


class BotAddSerializer(StrictSerializer):
    level = serializers.ChoiceField(
        choices=BOT_LEVELS, required=False, help_text="A built-in bot of this level."
    )
    account = StrictCharField(
        max_length=150,
        required=False,
        help_text=(
            "Instead of `level`: the username of a bot account (a player's program), seated and "
            "told so (`invited`); its program plays the seat."
        ),
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("level" in attrs) == ("account" in attrs):
            raise serializers.ValidationError("Send either a level or an account.")
        return attrs


# --- actions -----------------------------------------------------------------------------------


class _Action(StrictSerializer):
    expected_version = StrictIntegerField(
        required=False,
        min_value=limits.VERSION.low,
        max_value=limits.VERSION.high,
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
        help_text=(
            "multi_play: several cards of one number; color_runs: a run of one colour, rising "
            "or falling. Instead of 'card'."
        ),
    )
    color = serializers.ChoiceField(
        choices=list(COLORS), required=False, help_text="Required with a wild."
    )
    uno = StrictBooleanField(required=False, help_text="Say UNO with this play.")
    target = StrictIntegerField(
        required=False,
        min_value=limits.SEAT.low,
        max_value=limits.SEAT.high,
        help_text=(
            "seven_zero: the seat a 7 swaps with; zero_swap: the seat a 0 swaps with (optional); "
            "two_gives: the seat that receives 'give'."
        ),
    )
    give = serializers.ListField(
        child=serializers.ChoiceField(choices=CARD_CHOICES),
        required=False,
        max_length=108,
        help_text=(
            "two_gives, on a 2: up to two cards of your hand for 'target' (legal_actions lists "
            "a 2 without a gift: add 'give' and 'target' to give)."
        ),
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
    target = StrictIntegerField(min_value=limits.SEAT.low, max_value=limits.SEAT.high)


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

# --- the shape check of an action --------------------------------------------------------------
# The API checks only that an action body has its documented shape: the fields of its serializer
# above, with their JSON types, choices and bounds (400 ``invalid``); what the action means, the
# engine decides (422). The check is derived from the serializers' fields, without building one:
# a DRF serializer deep-copies its fields, about a tenth of an action's time.

ValueCheck = Callable[[Any], str | None]  # the problem with a value, or None


def _bounded_int(field: StrictIntegerField) -> ValueCheck:
    low, high = field.min_value, field.max_value

    def check(value: Any) -> str | None:
        if type(value) is not int:
            return "A valid integer is required."
        if (low is not None and value < low) or (high is not None and value > high):
            return f"Must be an integer from {low} to {high}."
        return None

    return check


def _one_of(field: serializers.ChoiceField) -> ValueCheck:
    choices = frozenset(key for key in field.choices if isinstance(key, str))

    def check(value: Any) -> str | None:
        return None if type(value) is str and value in choices else f"{value!r} is not a choice."

    return check


def _list_of(field: serializers.ListField) -> ValueCheck:
    child = field.child
    assert type(child) is serializers.ChoiceField, child
    item = _one_of(child)
    low, high = field.min_length or 0, field.max_length

    def check(value: Any) -> str | None:
        if type(value) is not list:
            return "Expected a list of items."
        if len(value) < low or (high is not None and len(value) > high):
            return f"Must hold {low} to {high} items."
        return next((problem for problem in map(item, value) if problem is not None), None)

    return check


def _value_check(field: serializers.Field) -> ValueCheck:
    if type(field) is StrictBooleanField:
        return lambda value: None if type(value) is bool else "Must be true or false."
    if type(field) is StrictIntegerField:
        return _bounded_int(field)
    if type(field) is serializers.ChoiceField:
        return _one_of(field)
    if type(field) is serializers.ListField:
        return _list_of(field)
    raise TypeError(f"no shape check for {type(field).__name__}")


@dataclass(frozen=True)
class _ActionShape:
    checks: dict[str, ValueCheck]
    required: tuple[str, ...]

    def problem(self, body: Mapping[str, Any]) -> str | None:
        unknown = sorted(str(name) for name in body if name not in self.checks)
        if unknown:
            return f"Unknown field(s): {', '.join(unknown)}."
        missing = [name for name in self.required if name not in body]
        if missing:
            return f"{missing[0]}: This field is required."
        for name, value in body.items():
            problem = self.checks[name](value)
            if problem is not None:
                return f"{name}: {problem}"
        return None


def _shape_of(serializer_class: type[_Action]) -> _ActionShape:
    fields = serializer_class().fields
    return _ActionShape(
        {name: _value_check(field) for name, field in fields.items()},
        tuple(name for name, field in fields.items() if field.required),
    )


_ACTION_SHAPES = {name: _shape_of(cls) for name, cls in ACTION_SERIALIZERS.items()}


def action_shape_problem(body: Any) -> str | None:
    """What keeps ``body`` from being an action of the documented shape, or None."""
    if not isinstance(body, dict):
        return "The body must be a JSON object."
    name = body.get("action")
    if not isinstance(name, str) or name not in _ACTION_SHAPES:
        return f"'action' must be one of {', '.join(ACTION_SERIALIZERS)}."
    return _ACTION_SHAPES[name].problem(body)


# One component per action, and one union of them, "Action": the request body of the actions
# endpoint and the entries of a view's you.legal_actions (a listed action can be sent back as it
# is; its expected_version is optional). unoservice.schema.share_action_components drops the
# "...Request" copies drf-spectacular makes of them.
ActionSerializer = PolymorphicProxySerializer(
    component_name="Action",
    serializers=ACTION_SERIALIZERS,  # type: ignore[arg-type]
    resource_type_field_name="action",
)


# --- query strings -----------------------------------------------------------------------------


class GameListQuerySerializer(StrictSerializer):
    status = serializers.ChoiceField(choices=GAME_STATUSES, required=False)
    mine = serializers.BooleanField(required=False, default=False)
    my_turn = serializers.BooleanField(required=False, default=False)
    page = serializers.IntegerField(required=False, min_value=1, max_value=MAX_INT)
    page_size = serializers.IntegerField(
        required=False, min_value=limits.GAMES_PAGE.low, max_value=limits.GAMES_PAGE.high
    )


class EventsQuerySerializer(StrictSerializer):
    after = serializers.IntegerField(required=False, default=0, min_value=0, max_value=MAX_INT)
    limit = serializers.IntegerField(
        required=False,
        default=limits.EVENTS_PAGE_DEFAULT,
        min_value=limits.EVENTS_PAGE.low,
        max_value=limits.EVENTS_PAGE.high,
    )
    wait = serializers.IntegerField(
        required=False,
        default=0,
        min_value=limits.LONG_POLL_WAIT.low,
        max_value=limits.LONG_POLL_WAIT.high,
        help_text="Hold the request up to this many seconds until there is an event after 'after'.",
    )


class ReplayQuerySerializer(StrictSerializer):
    at = serializers.IntegerField(min_value=1, max_value=MAX_INT)


# --- responses (documentation) -----------------------------------------------------------------
# The game view and the event page are derived from games.engine.shapes (games.event_schema);
# the lobby's list refers to the same Settings component.

GameViewSerializer = ref("GameView")
EventPageSerializer = ref("EventPage")
GameExportSerializer = ref("GameExport")


@extend_schema_field(ref("Settings"))
class _SettingsField(serializers.JSONField):
    pass


@extend_schema_field(ref("PlayerRef"))
class _PlayerField(serializers.JSONField):
    pass


class SeatSummarySerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = _PlayerField()
    status = serializers.ChoiceField(choices=SEAT_STATUSES)
    bot = serializers.ChoiceField(
        choices=BOT_LEVELS, required=False, help_text="The level of the bot that plays the seat."
    )
    bot_account = serializers.BooleanField(
        required=False, help_text="Sent when true: a bot account's program plays the seat."
    )


class GameSummarySerializer(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=GAME_STATUSES)
    version = serializers.IntegerField()
    settings = _SettingsField()
    seats = SeatSummarySerializer(many=True)
    current_seat = serializers.IntegerField(allow_null=True)
    turn_deadline = serializers.DateTimeField(allow_null=True)
    winner_seat = serializers.IntegerField(
        allow_null=True,
        help_text="Once finished: the seat that went out in the last round (with teams, a seat "
        "of any team: the winner is winner_team).",
    )
    winner_team = serializers.IntegerField(
        allow_null=True, help_text="With teams, once finished: the team that won."
    )
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(
        allow_null=True, help_text="When the game ended; null until then."
    )


class GamePageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = GameSummarySerializer(many=True)


# --- challenges ----------------------------------------------------------------------------------


class ChallengeCreateSerializer(StrictSerializer):
    to = StrictCharField(
        max_length=150, help_text="The username of the player (or bot) challenged."
    )
    settings = GameCreateSerializer(
        required=False,
        help_text=(
            "The game's settings, as when creating a game, without max_players (2), bots, seed, "
            "deck, private and teams."
        ),
    )
    expires_in = _bounded(
        limits.CHALLENGE_EXPIRY,
        required=False,
        help_text=(
            f"Seconds it waits for an answer; by default {limits.CHALLENGE_LIVE_SECONDS} for live "
            f"play (turns under an hour), {limits.CHALLENGE_CORRESPONDENCE_SECONDS} otherwise."
        ),
    )


class ChallengeSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.UUIDField()
    from_ = serializers.CharField(help_text="The username of the challenger.")
    to = serializers.CharField(help_text="The username of the player challenged.")
    challenger = _PlayerField()
    challenged = _PlayerField()
    settings = serializers.JSONField(help_text="The settings the game is made with.")
    status = serializers.ChoiceField(choices=ChallengeStatus.values)
    expires_at = serializers.DateTimeField()
    game = serializers.UUIDField(allow_null=True, help_text="Once accepted: the game.")
    created_at = serializers.DateTimeField()

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        return {("from" if name == "from_" else name): field for name, field in fields.items()}


class ChallengeListSerializer(serializers.Serializer[dict[str, Any]]):
    challenges = ChallengeSerializer(
        many=True, help_text="Made and received, newest first: the open ones (all with ?all=true)."
    )


class ChallengeListQuerySerializer(StrictSerializer):
    all = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Also the answered, cancelled and expired ones (the newest 50 in all).",
    )


# --- the table chat (service.chat; the fixed parts in games.chat_rules) --------------------------


class ChatSendSerializer(StrictSerializer):
    text = StrictCharField(
        required=False,
        min_length=chat_rules.TEXT.low,
        max_length=chat_rules.TEXT.high,
        help_text=(
            f"A message, {chat_rules.TEXT.low} to {chat_rules.TEXT.high} characters after "
            "trimming; shown as plain text (a link is never made a link)."
        ),
    )
    reaction = serializers.ChoiceField(
        choices=list(chat_rules.REACTIONS.items()),
        required=False,
        help_text="A quick reaction: "
        + ", ".join(f"`{key}` ({words})" for key, words in chat_rules.REACTIONS.items())
        + ".",
    )

    def validate_text(self, text: str) -> str:
        # Trimming takes whitespace only: a text of zero-width spaces (format characters) or
        # control characters would be an empty line in everyone's chat.
        if all(char.isspace() or unicodedata.category(char) in ("Cf", "Cc") for char in text):
            raise serializers.ValidationError("The text shows nothing: write something visible.")
        return text

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("text" in attrs) == ("reaction" in attrs):
            raise serializers.ValidationError("Send exactly one of 'text' and 'reaction'.")
        return attrs


class ChatQuerySerializer(StrictSerializer):
    after = serializers.IntegerField(
        min_value=0,
        max_value=limits.MAX_INT,
        required=False,
        default=0,
        help_text="Messages after this id (the last one received).",
    )
    limit = serializers.IntegerField(
        min_value=chat_rules.PAGE.low,
        max_value=chat_rules.PAGE.high,
        required=False,
        default=chat_rules.PAGE_DEFAULT,
    )


class ChatAuthorSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()


class ChatMessageSerializer(serializers.Serializer):
    """A chat message, in the list and as the data of a stream's `chat` frame."""

    id = serializers.IntegerField(help_text="Increasing within a game; pass as `chat_after`.")
    author = ChatAuthorSerializer()
    seat = serializers.IntegerField(allow_null=True, help_text="Null: a spectator.")
    channel = serializers.ChoiceField(choices=list(chat_rules.CHANNELS))
    text = serializers.CharField(allow_null=True)
    reaction = serializers.ChoiceField(
        choices=list(chat_rules.REACTIONS), allow_null=True, help_text="A reaction's key."
    )
    version = serializers.IntegerField(help_text="The game's version (seq) when it was sent.")
    at = serializers.DateTimeField()


class ChatPageSerializer(serializers.Serializer):
    messages = ChatMessageSerializer(many=True)
    muted = serializers.BooleanField(help_text="The caller muted this game's chat: no messages.")


class ChatMuteSerializer(serializers.Serializer):
    muted = serializers.BooleanField()


# --- tournaments (service.tournaments) -----------------------------------------------------------


class TournamentCreateSerializer(StrictSerializer):
    name = StrictCharField(
        min_length=limits.TOURNAMENT_NAME.low, max_length=limits.TOURNAMENT_NAME.high
    )
    format = serializers.ChoiceField(
        choices=TOURNAMENT_FORMATS,
        help_text=(
            "swiss: rounds seated by standing, nobody meeting an opponent again where another "
            "seating exists; arena: for `minutes`, a player who finishes is seated again at "
            "once, points doubled after two wins in a row; duplicate: every table of a round "
            "plays the same deals (one per seat), the seats rotated, each hand compared with "
            "the other tables'."
        ),
    )
    table_size = StrictIntegerField(
        default=limits.DEFAULT_PLAYERS,
        min_value=-MAX_INT,
        max_value=MAX_INT,
        help_text=(
            f"Seats at every table, {limits.TABLE_SIZE.low} to {limits.TABLE_SIZE.high} (400 "
            "`invalid_table_size` otherwise); short tables are filled by basic bots."
        ),
    )
    settings = GameCreateSerializer(
        required=False,
        help_text=(
            "Every table's game settings, as when creating a game (house rules, target score, "
            "clock), without max_players (the table size), bots, seed, deck and private."
        ),
    )
    starts_at = StrictDateTimeField(
        help_text=(
            "When the first round is seated, with its zone (400 `invalid` without); in the "
            "future (400 `start_in_past`)."
        )
    )
    rounds = _bounded(limits.TOURNAMENT_ROUNDS, required=False, help_text="Swiss, duplicate.")
    minutes = _bounded(limits.TOURNAMENT_MINUTES, required=False, help_text="Arena: its length.")
    bots_allowed = StrictBooleanField(
        required=False, default=False, help_text="Bot accounts may enter."
    )


class TournamentListQuerySerializer(StrictSerializer):
    status = serializers.ChoiceField(choices=TOURNAMENT_STATUSES, required=False)
    mine = serializers.BooleanField(required=False, default=False)
    page = serializers.IntegerField(required=False, min_value=1, max_value=MAX_INT)
    page_size = serializers.IntegerField(
        required=False,
        min_value=limits.TOURNAMENTS_PAGE.low,
        max_value=limits.TOURNAMENTS_PAGE.high,
    )


class _TournamentBase(serializers.Serializer[dict[str, Any]]):
    id = serializers.UUIDField()
    name = serializers.CharField()
    host = _PlayerField()
    format = serializers.ChoiceField(choices=TOURNAMENT_FORMATS)
    table_size = serializers.IntegerField()
    settings = serializers.JSONField(help_text="Every table's game settings.")
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField(allow_null=True, help_text="An arena's end.")
    round_count = serializers.IntegerField(
        allow_null=True, help_text="The rounds asked for (swiss, duplicate)."
    )
    minutes = serializers.IntegerField(allow_null=True)
    bots_allowed = serializers.BooleanField()
    status = serializers.ChoiceField(choices=TOURNAMENT_STATUSES)
    round = serializers.IntegerField(help_text="The round being played (0 before the start).")
    version = serializers.IntegerField(help_text="The seq of the log's last entry.")
    player_count = serializers.IntegerField(help_text="Players taking part (not withdrawn).")
    created_at = serializers.DateTimeField()


TOURNAMENT_BOT_ACCOUNT = "A bot account (a player's program, docs/bot-api.md)."


class TournamentPlayerSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    username = serializers.CharField()
    withdrawn = serializers.BooleanField()
    bot_account = serializers.BooleanField(help_text=TOURNAMENT_BOT_ACCOUNT)


class TournamentTableSerializer(serializers.Serializer[dict[str, Any]]):
    table = serializers.IntegerField()
    deal = serializers.IntegerField(help_text="Duplicate: the deal the table plays (0, 1, ...).")
    game = serializers.UUIDField()
    seats = serializers.ListField(child=serializers.IntegerField(), help_text="Player ids.")
    bots = serializers.ListField(
        child=serializers.IntegerField(), help_text="The seats basic bots fill."
    )
    finished = serializers.BooleanField()
    places = serializers.ListField(
        child=serializers.IntegerField(), allow_null=True, help_text="By seat, once finished."
    )


class TournamentRoundSerializer(serializers.Serializer[dict[str, Any]]):
    number = serializers.IntegerField()
    revealed = serializers.BooleanField(
        help_text="Duplicate: the round is over, its deals shown and verifiable."
    )
    tables = TournamentTableSerializer(many=True)


class TournamentStandingSerializer(serializers.Serializer[dict[str, Any]]):
    player = serializers.IntegerField()
    username = serializers.CharField()
    bot_account = serializers.BooleanField(help_text=TOURNAMENT_BOT_ACCOUNT)
    points = serializers.FloatField()
    tiebreak = serializers.FloatField(help_text="The sum of the points of the opponents met.")
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    rating = serializers.FloatField(help_text="The rating's ordinal.")
    streak = serializers.IntegerField(help_text="Wins in a row (arena: 2 or more double).")


class TournamentYouSerializer(serializers.Serializer[dict[str, Any]]):
    withdrawn = serializers.BooleanField()
    table = serializers.UUIDField(allow_null=True, help_text="Your running table's game.")


class TournamentSerializer(_TournamentBase):
    players = TournamentPlayerSerializer(many=True)
    rounds = TournamentRoundSerializer(many=True)
    standings = TournamentStandingSerializer(many=True, help_text="Best first.")
    you = TournamentYouSerializer(allow_null=True, help_text="The caller's part; null: none.")


class TournamentSummarySerializer(_TournamentBase):
    pass


class TournamentPageSerializer(serializers.Serializer[dict[str, Any]]):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = TournamentSummarySerializer(many=True)
