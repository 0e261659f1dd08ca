"""One short round, dealt from a given deck (staff only), for two players: seat 0 plays a wild
and names blue, seat 1 draws a playable card and keeps it (pass), seat 0 plays its skips and
draw twos, says UNO with its second-to-last card, seat 1 plays once, and seat 0 goes out. With a
target of 50 the round ends the game (seat 0 scores the 56 points left in seat 1's hand)."""

from __future__ import annotations

from typing import Any

from tests.support.decks import deck_for
from tests.web.site import GAMES, Site

HANDS = (
    ("wild", "blue-skip", "blue-reverse", "blue-draw2", "green-draw2", "green-3", "green-skip"),
    ("green-9", "red-9", "yellow-4", "yellow-6", "yellow-8", "red-2", "red-4"),
)
STARTER = "red-5"
# Seat 1's draw (blue-9, playable on the blue wild), then the two draw twos it takes.
DRAWS = ("blue-9", "red-1", "red-6", "yellow-2", "yellow-5")
TARGET = 50
POINTS = 56

# (seat, action), in order: what each person clicks in the browser test.
MOVES: tuple[tuple[int, dict[str, Any]], ...] = (
    (0, {"action": "play", "card": "wild", "color": "blue"}),
    (1, {"action": "draw"}),
    (1, {"action": "pass"}),
    (0, {"action": "play", "card": "blue-skip"}),
    (0, {"action": "play", "card": "blue-reverse"}),
    (0, {"action": "play", "card": "blue-draw2"}),
    (0, {"action": "play", "card": "green-draw2"}),
    (0, {"action": "play", "card": "green-3", "uno": True}),
    (1, {"action": "play", "card": "green-9"}),
    (0, {"action": "play", "card": "green-skip"}),
)

# The moves as written: every test shares them, so a test that changes an action (rather than a
# copy of it) changes every later test's game; the ``site`` fixture checks them against this.
AS_WRITTEN = repr(MOVES)


def create(site: Site, staff_token: str, **settings: Any) -> dict[str, Any]:
    """The scripted game for two, created by a staff player (seat 0); its view."""
    body = {
        "max_players": 2,
        "target_score": TARGET,
        "deck": deck_for(HANDS, STARTER, DRAWS),
        **settings,
    }
    return dict(site.api("POST", GAMES, staff_token, body, status=201))


def play_through(site: Site, game: str, tokens: list[str]) -> int:
    """Play the script over the API; the finished game's version."""
    version = 0
    for seat, action in MOVES:
        version = site.act(game, tokens[seat], action)["version"]
    return int(version)


def started(site: Site, **settings: Any) -> tuple[str, list[str]]:
    """Ana (staff, seat 0) and Bea registered over the API, seated at the scripted game, which
    has started: (its id, their tokens)."""
    tokens = [site.register("ana"), site.register("bea")]
    tokens[0] = site.make_staff("ana")
    game = str(create(site, tokens[0], **settings)["id"])
    site.api("POST", f"{GAMES}{game}/join/", tokens[1])
    return game, tokens


def finished(site: Site) -> tuple[str, list[str], int]:
    """The scripted game ``started`` and played through: (its id, the tokens, its version)."""
    game, tokens = started(site)
    return game, tokens, play_through(site, game, tokens)
