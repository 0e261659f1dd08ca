"""Every numeric limit of a game and of the requests about one, defined once.

The engine checks the ones it plays by (players, penalties, scores); the services check the
settings the engine never sees (turn timeouts, seeds); the input serializers and so the OpenAPI
schema read their bounds from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True)
class Bound:
    """An inclusive range of integers, and the sentence that says it."""

    name: str
    low: int
    high: int

    def holds(self, value: object) -> bool:
        return (
            isinstance(value, int)
            and not isinstance(value, bool)
            and self.low <= value <= self.high
        )

    def message(self) -> str:
        return f"'{self.name}' must be an integer from {self.low:,} to {self.high:,}."


MAX_INT: Final = 2**31 - 1

PLAYERS: Final = Bound("max_players", 2, 10)
TARGET_SCORE: Final = Bound("target_score", 1, 1_000_000)
TURN_TIMEOUT: Final = Bound("turn_timeout", 1, 30 * 24 * 3600)
MAX_TIMEOUTS: Final = Bound("max_timeouts", 1, 100)
SEED: Final = Bound("seed", 0, 2**63 - 1)
UNO_PENALTY: Final = Bound("uno_penalty", 0, 20)
BLUFF_PENALTY: Final = Bound("bluff_penalty", 0, 20)
SEAT: Final = Bound("target", 0, PLAYERS.high - 1)
TEAMS: Final = Bound("teams", 2, 3)  # partners: a game setting, left out for no teams
VERSION: Final = Bound("expected_version", 0, MAX_INT)

# The bank clock of correspondence play (seconds; the rule book's "Clocks for correspondence
# play"): each seat's time bank, what a seat gains after each of its moves, and the cap.
BANK_INITIAL: Final = Bound("initial", 1, 30 * 24 * 3600)
BANK_INCREMENT: Final = Bound("increment", 1, 30 * 24 * 3600)
BANK_MAX: Final = Bound("max", 1, 60 * 24 * 3600)
# A move clock shorter than this is live play: a vacation does not pause it.
PAUSED_FROM: Final = 3600
# Vacations: the days of one, and the days a calendar year (UTC) allows in all.
VACATION_DAYS: Final = Bound("days", 1, 14)
VACATION_DAYS_PER_YEAR: Final = 14
# A guest account not claimed (given a username and a password) within this many days is removed.
GUEST_DAYS: Final = 30

# Requests about a game.
IDEMPOTENCY_KEY_LENGTH: Final = Bound("Idempotency-Key", 1, 255)
EVENTS_PAGE: Final = Bound("limit", 1, 1000)
EVENTS_PAGE_DEFAULT: Final = 100
LONG_POLL_WAIT: Final = Bound("wait", 0, 30)
GAMES_PAGE: Final = Bound("page_size", 1, 100)
GAMES_PAGE_DEFAULT: Final = 20

# A replay folds at most this many events past the nearest checkpoint (plus one write's events):
# the log of a game has no bound of its own, the cost of reading it back at any point has.
CHECKPOINT_EVERY: Final = 200

# Tables: quick match's wait for bots, invite codes, the leaderboard's pages.
FILL_WITH_BOTS_AFTER: Final = Bound("fill_with_bots_after", 0, 24 * 3600)
INVITE_CODE_LENGTH: Final = 10  # of a 30-letter alphabet: about 49 bits
INVITE_CODE_INPUT: Final = Bound("code", 1, 64)  # what join-by-code reads (dashes, spaces)
LEADERBOARD_PAGE: Final = Bound("page_size", 1, 100)
LEADERBOARD_PAGE_DEFAULT: Final = 20

# A bound on the timeouts one write applies in a row: a game ends long before (forfeits).
MAX_CATCH_UP: Final = 1000

DEFAULT_PLAYERS: Final = 4
DEFAULT_TARGET_SCORE: Final = 500
DEFAULT_TURN_TIMEOUT: Final = 86400
DEFAULT_MAX_TIMEOUTS: Final = 3
DEFAULT_BANK_INITIAL: Final = 3 * 24 * 3600
DEFAULT_BANK_INCREMENT: Final = 24 * 3600
DEFAULT_BANK_MAX: Final = 7 * 24 * 3600

# A challenge waits this long for an answer unless its challenger says otherwise: a minute for
# live play, a day for correspondence (``games.timekeeping.is_live`` tells them apart).
CHALLENGE_EXPIRY: Final = Bound("expires_in", 10, 7 * 24 * 3600)
CHALLENGE_LIVE_SECONDS: Final = 60
CHALLENGE_CORRESPONDENCE_SECONDS: Final = 24 * 3600

# The player stream's opening snapshot lists at most this many of the caller's current games
# (the oldest first; ``more_games`` says when there are more: ``GET /games/?mine=true`` pages them).
SNAPSHOT_GAMES: Final = 200
# Tournaments (service.tournaments): a table seats 2 to 10 (the game's own bound), a Swiss or
# duplicate tournament plays 1 to 50 rounds, an arena lasts 1 minute to a week, a name is 1 to 100
# characters, and a tournament starts at most a year ahead.
TABLE_SIZE: Final = Bound("table_size", PLAYERS.low, PLAYERS.high)
TOURNAMENT_ROUNDS: Final = Bound("rounds", 1, 50)
TOURNAMENT_MINUTES: Final = Bound("minutes", 1, 7 * 24 * 60)
TOURNAMENT_NAME: Final = Bound("name", 1, 100)
TOURNAMENT_AHEAD_DAYS: Final = 365
TOURNAMENTS_PAGE: Final = Bound("page_size", 1, 100)
TOURNAMENTS_PAGE_DEFAULT: Final = 20
