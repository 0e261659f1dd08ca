"""The table chat's fixed parts, defined once: the reactions, the text's length, the rate limit,
the channels. The service (``service.chat``), the serializers (so the schema's enum) and the
model read them; the web client names the reactions by these keys."""

from __future__ import annotations

from typing import Final

from games.engine.limits import Bound

# The quick reactions (no free text): key -> the English words the client shows.
REACTIONS: Final[dict[str, str]] = {
    "nice": "Nice!",
    "oops": "Oops",
    "uno": "UNO!",
    "well_played": "Well played",
    "hurry_up": "Hurry up",
}
# A message's text, counted in characters after trimming.
TEXT: Final = Bound("text", 1, 200)
# At most RATE_MESSAGES messages a player in any RATE_SECONDS (over all games: one mouth).
RATE_MESSAGES: Final = 5
RATE_SECONDS: Final = 10
# The players' channel (seated players; spectators read it too) and the spectators' own (only
# with the game setting ``spectator_chat``; seated players never see it).
PLAYERS: Final = "players"
SPECTATORS: Final = "spectators"
CHANNELS: Final = (PLAYERS, SPECTATORS)
# A page of GET .../chat/.
PAGE: Final = Bound("limit", 1, 500)
PAGE_DEFAULT: Final = 200
# What a bot answers to a person's reaction (the bot seated at message id % bots answers).
BOT_ANSWERS: Final[dict[str, str]] = {
    "nice": "well_played",
    "well_played": "nice",
    "uno": "oops",
}
