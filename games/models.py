"""The event log of every game, and the projections the service reads and locks.

``Event`` is the truth: append-only (PostgreSQL refuses UPDATE and DELETE on it by a trigger).
``Game``, ``Seat`` and ``Hand`` are projections written in the same transaction as the events and
rebuildable from the log (``manage.py rebuild_projections``). ``Game.state`` holds the engine
state after the last event, so acting on a game never replays its whole log.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.fairness import ZERO_HASH, new_salt
from games.fields import JSONTextField


class GameStatus(models.TextChoices):
    WAITING = "waiting"
    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"


# A game's number of teams is kept in its ``rules`` column under this key, beside the house rules
# (no migration for one number); ``Game.house_rules`` and ``Game.team_count`` take it apart.
TEAMS_KEY = "teams"


def game_salt() -> str:
    """A new game's secret salt: random, or ``UNO_TEST_SALT`` in tests and benchmarks."""
    fixed: str | None = settings.UNO_TEST_SALT
    return fixed or new_salt()


def sees_its_seat(entry: dict[str, Any]) -> bool:
    """Whether the player of a roster entry sees the game from its seat (its hand, its drawn
    cards, its legal actions): not once a bot plays the seat for them (``bot_takeover``, after a
    forfeit). They left the game for good, and watch it on as a spectator does; else the hand a
    bot plays on would be shown to someone who may tell its partner or its opponents."""
    return "bot" not in entry


class Game(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    status = models.CharField(max_length=16, choices=GameStatus.choices, default=GameStatus.WAITING)
    version = models.PositiveIntegerField(default=0, help_text="The seq of the last event.")
    max_players = models.PositiveSmallIntegerField(default=4)
    target_score = models.PositiveIntegerField(default=500)
    turn_timeout = models.PositiveIntegerField(default=86400, help_text="Seconds.")
    max_timeouts = models.PositiveSmallIntegerField(default=3)
    rules = models.JSONField(default=dict, blank=True)
    roster = models.JSONField(
        default=list, blank=True, help_text="The seated players, by seat: [{id, username}]."
    )
    seed = models.BigIntegerField(help_text="Secret until the game ends.")
    salt = models.CharField(
        max_length=64,
        blank=True,
        default=game_salt,
        help_text=(
            "32 random bytes in hex, secret until the game ends, mixed with the seed into every "
            "shuffle; empty for games begun before fair decks (docs/fairness.md)."
        ),
    )
    last_hash = models.CharField(
        max_length=64,
        default=ZERO_HASH,
        help_text="The hash of event `version` (the chain's head).",
    )
    bot_takeover = models.BooleanField(
        default=False, help_text="A seat that forfeits is played on by a basic bot."
    )
    spectator_chat = models.BooleanField(
        default=False, help_text="Spectators may chat, in a channel of their own."
    )
    bots_welcome = models.BooleanField(
        default=False,
        help_text="Bot accounts (players' programs) may take a seat themselves: join, quick match.",
    )
    # Tables (service.tables): private games and their codes, quick match, rematches.
    private = models.BooleanField(
        default=False, help_text="Left out of the lobby; seen by its seated players only."
    )
    invite_code = models.CharField(
        max_length=16, null=True, blank=True, unique=True, help_text="Joins a private game."
    )
    match_key = models.CharField(
        max_length=64,
        null=True,
        blank=True,
        help_text="The hash of the settings quick match compares (public games only).",
    )
    fill_bots_at = models.DateTimeField(
        null=True, blank=True, help_text="Quick match: free seats get basic bots from then on."
    )
    rematch = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="rematch_of",
        help_text="The game its players play next (POST .../rematch/).",
    )
    deck = models.JSONField(null=True, blank=True, help_text="A given first-round deck (staff).")
    sealed = models.BooleanField(
        default=False,
        help_text=(
            "A duplicate tournament's table: its cards, seed and salt stay hidden after it "
            "finishes, until every table of its round has played the same deals."
        ),
    )
    state = JSONTextField(null=True, blank=True, help_text="Engine state after `version`.")
    current_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    turn_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    turn_started_at = models.DateTimeField(
        null=True, blank=True, help_text="When the clock of the seat that must act started."
    )
    remind_at = models.DateTimeField(
        null=True, blank=True, help_text="When the seat to act is reminded."
    )
    away = models.JSONField(
        null=True,
        blank=True,
        help_text="The vacations of the seated players that may stand a clock still: "
        "{player id: [[start, end], ...]}; null: read them again.",
    )
    clock = models.JSONField(
        null=True,
        blank=True,
        help_text='The bank clock, {"type": "bank", "initial", "increment", "max"} in seconds; '
        "null: the move clock (turn_timeout).",
    )
    winner_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    winner_team = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="With teams, once finished: the team that won."
    )
    finished_at = models.DateTimeField(
        null=True, blank=True, help_text="When the game ended (its game_ended event)."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="games_created"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "-created_at"]),
            models.Index(
                fields=["match_key", "created_at"],
                condition=models.Q(status="waiting"),
                name="game_match_waiting",
            ),
            models.Index(
                fields=["fill_bots_at"],
                condition=models.Q(status="waiting"),
                name="game_fill_bots_waiting",
            ),
            # The sweep's read of due reminders: only active games' turns not reminded yet hold
            # a ``remind_at`` (service.reminders clears it), so this index holds just those.
            models.Index(
                fields=["remind_at"],
                condition=models.Q(status="active"),
                name="game_reminder_due",
            ),
            # The lobby's open games: its count reads this index only (``private`` and ``id``
            # for the filter of who may see a game), not the wide rows of every waiting game.
            models.Index(
                fields=["-created_at", "private", "id"],
                condition=models.Q(status="waiting"),
                name="game_lobby_waiting",
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.id} ({self.status}, v{self.version})"

    @property
    def revealed(self) -> bool:
        """Finished, and not sealed: its log, replays and fairness show every card."""
        return self.status == GameStatus.FINISHED and not self.sealed

    def house_rules(self) -> dict[str, Any]:
        return {k: v for k, v in self.rules.items() if k != TEAMS_KEY}

    def bank(self) -> tuple[int, int, int] | None:
        """The bank clock's (initial, increment, max), or None for the move clock."""
        clock = self.clock
        if not clock:
            return None
        return (int(clock["initial"]), int(clock["increment"]), int(clock["max"]))

    def team_count(self) -> int:
        """The number of teams (0: every seat for itself)."""
        return int(self.rules.get(TEAMS_KEY, 0))


class SeatStatus(models.TextChoices):
    PLAYING = "playing"
    FORFEITED = "forfeited"
    OUT = "out"


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats"
    )
    status = models.CharField(max_length=16, choices=SeatStatus.choices, default=SeatStatus.PLAYING)
    score = models.IntegerField(default=0)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="seat_unique_number"),
            models.UniqueConstraint(fields=["game", "player"], name="seat_unique_player"),
        ]

    def __str__(self) -> str:
        return f"Seat {self.number} of {self.game_id}"


class Hand(models.Model):
    """The cards a seat holds now: a projection of the log."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands")
    seat = models.PositiveSmallIntegerField()
    cards = models.JSONField(default=list)

    class Meta:
        ordering = ["game", "seat"]
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="hand_unique_seat")]

    def __str__(self) -> str:
        return f"Hand of seat {self.seat} in {self.game_id}"


class Event(models.Model):
    """One fact of a game's append-only log. Never updated, never deleted."""

    id = models.BigAutoField(primary_key=True)
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=32)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    data = models.JSONField(default=dict)
    hash = models.CharField(
        max_length=64,
        help_text="sha256(previous hash + canonical event) in hex (games.fairness.event_hash).",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="event_unique_seq")]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq} {self.type}"


class Checkpoint(models.Model):
    """The engine state right after event ``seq``, kept every ``limits.CHECKPOINT_EVERY`` events
    so that a replay folds a bounded number of events whatever the game's length.

    Derived from the log like the other projections (``manage.py rebuild_projections`` rewrites
    them); never shown to players as such: a replay renders it through the viewer's view.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="checkpoints")
    seq = models.PositiveIntegerField()
    state = JSONTextField(help_text="Engine state after `seq` (games.engine.snapshot).")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="checkpoint_unique_seq")
        ]

    def __str__(self) -> str:
        return f"{self.game_id}@{self.seq}"


class IdempotentRequest(models.Model):
    """The first answer to an action sent with an ``Idempotency-Key``, returned to retries."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    game = models.ForeignKey(Game, on_delete=models.CASCADE)
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64, help_text="SHA-256 of the request body.")
    status_code = models.PositiveSmallIntegerField()
    response = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "game", "key"], name="idempotency_unique_key")
        ]


class ChallengeStatus(models.TextChoices):
    OPEN = "open"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


class Challenge(models.Model):
    """``challenger`` asks ``challenged`` to a game of two with ``settings`` (a game's creation
    body); accepted, the game is made private, both seated, and started (``service.challenges``).
    An open challenge past ``expires_at`` is expired, whether or not the row says so yet."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_made"
    )
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_received"
    )
    settings = models.JSONField(default=dict)
    status = models.CharField(
        max_length=16, choices=ChallengeStatus.choices, default=ChallengeStatus.OPEN
    )
    expires_at = models.DateTimeField()
    game = models.ForeignKey(Game, on_delete=models.SET_NULL, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["challenged", "status", "-created_at"]),
            models.Index(fields=["challenger", "status", "-created_at"]),
        ]

    def __str__(self) -> str:
        return f"Challenge {self.pk}: {self.challenger_id} to {self.challenged_id} ({self.status})"


class ChatMessage(models.Model):
    """One line of a game's table chat: a text or a reaction (``games.chat_rules``). Not an event:
    the log is the rules' fold; the chat is kept beside it, with the version it was sent at so a
    replay shows it at its place."""

    id = models.BigAutoField(primary_key=True)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages"
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True, help_text="None: a spectator.")
    channel = models.CharField(max_length=16, default="players")
    text = models.CharField(max_length=200, blank=True, default="")
    reaction = models.CharField(max_length=16, blank=True, default="")
    version = models.PositiveIntegerField(help_text="The game's version (seq) when it was sent.")
    reply_to = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="answers",
        help_text="A bot's answer: the reaction it answers.",
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "id"]
        indexes = [
            models.Index(fields=["game", "id"], name="chat_game_id"),
            models.Index(fields=["author", "-created_at"], name="chat_author_recent"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id} chat #{self.id}"


class ChatMute(models.Model):
    """A player muted a game's chat: no chat of that game reaches them (stream or list)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_mutes")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_mutes"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "player"], name="chat_mute_unique")]

    def __str__(self) -> str:
        return f"{self.player_id} mutes {self.game_id}"


# --- tournaments (service.tournaments; the pure pairing and standings: games.pairing) -----------


class TournamentFormat(models.TextChoices):
    SWISS = "swiss"
    ARENA = "arena"
    DUPLICATE = "duplicate"


class TournamentStatus(models.TextChoices):
    UPCOMING = "upcoming"
    RUNNING = "running"
    FINISHED = "finished"


class Tournament(models.Model):
    """A tournament: its settings, and the projections of its log (``TournamentEntry``) that
    the service locks and reads: ``status``, ``round`` and ``version`` (the seq of its last
    entry). Every table it seats is an ordinary game (``TournamentTable`` links them)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournaments_hosted"
    )
    name = models.CharField(max_length=100)
    format = models.CharField(max_length=16, choices=TournamentFormat.choices)
    table_size = models.PositiveSmallIntegerField()
    settings = models.JSONField(default=dict, help_text="Every table's game settings.")
    starts_at = models.DateTimeField(db_index=True)
    rounds = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Swiss, duplicate.")
    minutes = models.PositiveIntegerField(null=True, blank=True, help_text="Arena.")
    bots_allowed = models.BooleanField(default=False, help_text="Bot accounts may enter.")
    status = models.CharField(
        max_length=16, choices=TournamentStatus.choices, default=TournamentStatus.UPCOMING
    )
    round = models.PositiveSmallIntegerField(default=0, help_text="The round being played.")
    version = models.PositiveIntegerField(default=0, help_text="The seq of the last log entry.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["status", "starts_at"], name="tournament_due")]

    def __str__(self) -> str:
        return f"Tournament {self.pk} ({self.format}, {self.status})"


class Entrant(models.Model):
    """A player in a tournament (a projection of its log): joined, or withdrawn since."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="entries"
    )
    joined_at = models.DateTimeField()
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entrant_once")
        ]


class TournamentTable(models.Model):
    """One game a tournament seated (a projection of its log): its round, table and deal (a
    duplicate round's tables play the same deals), its seats, and whether its result is in."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tables")
    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="tournament_table")
    round = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField(help_text="The table's number in its round.")
    deal = models.PositiveSmallIntegerField(default=0)
    seats = models.JSONField(default=list, help_text="Player ids by seat.")
    recorded = models.BooleanField(default=False, help_text="Its result is in the log.")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "round", "number", "deal"], name="tournament_table_once"
            )
        ]
        indexes = [
            models.Index(
                fields=["tournament"],
                name="tournament_table_open",
                condition=models.Q(recorded=False),
            )
        ]


class TournamentEntry(models.Model):
    """A tournament's append-only log (PostgreSQL refuses UPDATE and DELETE on it): every
    change, in order, so a tournament replays like a game (``games.tournament_log``)."""

    id = models.BigAutoField(primary_key=True)
    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="log")
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=32)
    data = models.JSONField(default=dict)
    at = models.DateTimeField()

    class Meta:
        ordering = ["tournament", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "seq"], name="tournament_entry_seq")
        ]
