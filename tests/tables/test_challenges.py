"""Challenges through HTTP: a player challenges another (or a bot) with settings; accepted, a
private game of two starts with both seated; declined or cancelled it is over; it expires after
its time; a block either way refuses it (403 ``blocked``); the challenged player is notified
(``challenge``), and the challenger once it is accepted (``challenge_accepted``). The names are
the contract's (../shared/api.md, part three): ``to`` a username, ``from``/``to`` in the answer,
status ``open``."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.engine import limits
from games.models import Challenge, Game
from notifications.models import Notification
from players.models import Block
from tests.support.players import Player
from tests.support.table import ok, refused

pytestmark = pytest.mark.django_db

CHALLENGES = "/api/v1/challenges/"


def accept(player: Player, challenge: str) -> Any:
    return player.client.post(f"{CHALLENGES}{challenge}/accept/")


def decline(player: Player, challenge: str) -> Any:
    return player.client.post(f"{CHALLENGES}{challenge}/decline/")


def cancel(player: Player, challenge: str) -> Any:
    return player.client.post(f"{CHALLENGES}{challenge}/cancel/")


def challenge(by: Player, to: Player | str, **body: Any) -> Any:
    name = to if isinstance(to, str) else to.user.username
    return by.client.post(CHALLENGES, {"to": name, **body}, format="json")


def test_a_challenge_accepted_starts_a_private_game_of_the_two(players: list[Player]) -> None:
    ada, bob, cy, _ = players
    made = ok(challenge(ada, bob, settings={"target_score": 200, "turn_timeout": 30}), 201)
    assert made["status"] == "open" and made["game"] is None
    assert (made["from"], made["to"]) == (ada.user.username, bob.user.username)
    assert made["challenger"]["id"] == ada.id and made["challenged"]["id"] == bob.id
    # Live play: a minute to answer, by default.
    left = Challenge.objects.get().expires_at - timezone.now()
    assert timedelta(seconds=50) < left <= timedelta(seconds=limits.CHALLENGE_LIVE_SECONDS)
    note = Notification.objects.get(player=bob.user, kind="challenge")
    assert note.data["challenge"] == made["id"] and note.data["by"]["id"] == ada.id
    assert [c["id"] for c in ok(bob.client.get(CHALLENGES))["challenges"]] == [made["id"]]
    assert ok(cy.client.get(CHALLENGES))["challenges"] == []

    refused(cy.client.post(f"{CHALLENGES}{made['id']}/accept/"), 404, "not_found")
    refused(accept(ada, made["id"]), 403, "permission_denied")  # the challenger does not
    accepted = ok(accept(bob, made["id"]))
    assert accepted["status"] == "accepted"
    game = Game.objects.get(pk=accepted["game"])
    assert game.status == "active" and game.private and game.max_players == 2
    assert game.target_score == 200 and game.turn_timeout == 30
    assert [entry["id"] for entry in game.roster] == [ada.id, bob.id]
    told = Notification.objects.get(player=ada.user, kind="challenge_accepted")
    assert told.data["game"] == accepted["game"] and told.data["by"]["id"] == bob.id
    refused(accept(bob, made["id"]), 409, "challenge_not_open")  # once


def test_declined_cancelled_or_expired_it_is_over(players: list[Player]) -> None:
    ada, bob, _, _ = players
    first = ok(challenge(ada, bob), 201)
    # Correspondence (the default turn of a day): a day to answer.
    left = Challenge.objects.get(pk=first["id"]).expires_at - timezone.now()
    assert left > timedelta(hours=23)
    refused(cancel(bob, first["id"]), 403, "permission_denied")  # only its challenger cancels
    # An id in capitals is the same id (it was 404 here, where a game's was found).
    assert ok(decline(bob, first["id"].upper()))["status"] == "declined"
    refused(accept(bob, first["id"]), 409, "challenge_not_open")
    refused(cancel(ada, first["id"]), 409, "challenge_not_open")

    second = ok(challenge(ada, bob), 201)
    refused(decline(ada, second["id"]), 403, "permission_denied")  # only the challenged declines
    assert ok(cancel(ada, second["id"]))["status"] == "cancelled"
    refused(decline(bob, second["id"]), 409, "challenge_not_open")

    third = ok(challenge(ada, bob, expires_in=10), 201)
    Challenge.objects.filter(pk=third["id"]).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    refused(accept(bob, third["id"]), 409, "challenge_expired")
    refused(decline(bob, third["id"]), 409, "challenge_expired")
    # The list holds the open challenges (the contract's); ?all=true every one, as it stands.
    fourth = ok(challenge(ada, bob), 201)
    assert [c["id"] for c in ok(bob.client.get(CHALLENGES))["challenges"]] == [fourth["id"]]
    everything = ok(bob.client.get(f"{CHALLENGES}?all=true"))["challenges"]
    listed = {c["id"]: c["status"] for c in everything}
    assert listed == {
        first["id"]: "declined",
        second["id"]: "cancelled",
        third["id"]: "expired",
        fourth["id"]: "open",
    }
    refused(bob.client.get(f"{CHALLENGES}?all=maybe"), 400, "invalid")
    assert not Game.objects.exists()


def test_a_bot_accepts_at_once(players: list[Player]) -> None:
    ada = players[0]
    vs = ok(
        ada.client.post("/api/v1/games/", {"max_players": 2, "bots": ["strong"]}, format="json"),
        201,
    )
    bot = vs["seats"][1]["player"]["username"]
    made = ok(challenge(ada, bot), 201)
    assert made["status"] == "accepted"
    game = Game.objects.get(pk=made["game"])
    assert game.status == "active" and len(game.roster) == 2
    assert game.roster[1].get("bot") == "strong"
    assert not Notification.objects.filter(kind__startswith="challenge").exists()
    # The first bot of a level is there to challenge before any game seated one (it was 404).
    first = ok(challenge(ada, "bot-random-1"), 201)
    assert first["status"] == "accepted" and first["to"] == "bot-random-1"
    assert Game.objects.get(pk=first["game"]).roster[1].get("bot") == "random"
    for nobody in ("bot-random-2", "bot-clever-1", "bot-basic-one"):
        refused(challenge(ada, nobody), 404, "not_found")


def test_a_block_either_way_refuses_a_challenge(players: list[Player]) -> None:
    ada, bob, _, _ = players
    Block.objects.create(blocker=bob.user, blocked=ada.user)
    refused(challenge(ada, bob), 403, "blocked")
    refused(challenge(bob, ada), 403, "blocked")
    # A block made after the challenge refuses its acceptance.
    Block.objects.all().delete()
    made = ok(challenge(ada, bob), 201)
    Block.objects.create(blocker=ada.user, blocked=bob.user)
    refused(accept(bob, made["id"]), 403, "blocked")
    assert not Game.objects.exists()
    # A block made through the API closes the open challenges between the two, both ways.
    Block.objects.all().delete()
    to_bob, to_ada = ok(challenge(ada, bob), 201), ok(challenge(bob, ada), 201)
    ok(bob.client.post(f"/api/v1/players/{ada.id}/block/"), 201)
    assert Challenge.objects.get(pk=to_bob["id"]).status == "declined"
    assert Challenge.objects.get(pk=to_ada["id"]).status == "cancelled"
    assert ok(ada.client.get(CHALLENGES))["challenges"] == []
    assert ok(bob.client.get(CHALLENGES))["challenges"] == []


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"settings": {"max_players": 3}}, 400, "invalid"),
        ({"settings": {"bots": ["basic"]}}, 400, "invalid"),
        ({"settings": {"private": True}}, 400, "invalid"),
        ({"settings": {"turn_timeout": 0}}, 400, "invalid"),
        ({"settings": {"colour": "red"}}, 400, "invalid"),
        ({"expires_in": 5}, 400, "invalid"),
        ({"expires_in": 8 * 24 * 3600}, 400, "invalid"),
        ({"to": "nobody-of-that-name"}, 404, "not_found"),
        ({"to": 7}, 400, "invalid"),
        ({"to": ""}, 400, "invalid"),
    ],
)
def test_a_bad_challenge_is_refused_and_stores_nothing(
    players: list[Player], body: dict[str, Any], status: int, code: str
) -> None:
    ada, bob, _, _ = players
    sent = {"to": bob.user.username, **body}
    refused(ada.client.post(CHALLENGES, sent, format="json"), status, code)
    assert not Challenge.objects.exists() and not Notification.objects.exists()


def test_a_challenge_to_oneself_is_refused(players: list[Player]) -> None:
    ada = players[0]
    refused(challenge(ada, ada), 400, "cannot_challenge_yourself")
    refused(challenge(ada, ada.user.username.upper()), 400, "cannot_challenge_yourself")
    assert not Challenge.objects.exists()


def test_a_challenger_with_every_waiting_seat_taken_still_gets_the_game(
    players: list[Player], settings: Any
) -> None:
    """An accepted challenge's game starts at once: it was refused (409
    ``too_many_waiting_games``) for the challenger's waiting games, which the player accepting
    could do nothing about; so was a challenge to a bot. Creating one more waiting game is still
    refused."""
    ada, bob, _, _ = players
    settings.UNO_MAX_WAITING_GAMES = 2
    for _ in range(2):
        ok(ada.client.post("/api/v1/games/", {"max_players": 3}, format="json"), 201)
    made = ok(challenge(ada, bob), 201)
    accepted = ok(accept(bob, made["id"]))
    assert Game.objects.get(pk=accepted["game"]).status == "active"
    vs = ok(
        bob.client.post("/api/v1/games/", {"max_players": 2, "bots": ["basic"]}, format="json"), 201
    )
    by_bot = ok(challenge(ada, vs["seats"][1]["player"]["username"]), 201)
    assert by_bot["status"] == "accepted"
    assert Game.objects.get(pk=by_bot["game"]).status == "active"
    refused(
        ada.client.post("/api/v1/games/", {"max_players": 3}, format="json"),
        409,
        "too_many_waiting_games",
    )


# Seeds whose first turn falls to the challenger's seat (0), and to the other's (1).
CHALLENGER_FIRST, CHALLENGED_FIRST = 1, 2


@pytest.mark.parametrize("seed", [CHALLENGER_FIRST, CHALLENGED_FIRST])
def test_the_challenger_is_told_once_that_the_game_is_on(
    players: list[Player], monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    """Accepted, the challenge was told to its challenger three times (``player_joined``,
    ``game_started``, ``challenge_accepted``: three pushes of one tap), four when they played
    first. Now one ``challenge_accepted`` says it all (with ``game_started``'s data), and a
    ``your_turn`` follows only when the first turn is theirs; the player who accepted is told
    the start (and their turn) as before."""
    ada, bob, _, _ = players
    monkeypatch.setattr("service.lobby.secrets.randbits", lambda _bits: seed)
    made = ok(challenge(ada, bob, settings={"turn_timeout": 3600}), 201)
    accepted = ok(accept(bob, made["id"]))
    game = Game.objects.get(pk=accepted["game"])
    assert game.current_seat == (0 if seed == CHALLENGER_FIRST else 1)

    def kinds(player: Player) -> list[str]:
        rows = Notification.objects.filter(player=player.user, game=game).order_by("id")
        return list(rows.values_list("kind", flat=True))

    ada_first = game.current_seat == 0
    assert kinds(ada) == ["challenge_accepted", *(["your_turn"] if ada_first else [])]
    assert kinds(bob) == ["game_started", *([] if ada_first else ["your_turn"])]
    told = Notification.objects.get(player=ada.user, kind="challenge_accepted")
    assert told.data == {
        "challenge": made["id"],
        "by": {"id": bob.id, "username": bob.user.username},
        "game": accepted["game"],
        "seat": 0,
        "players": 2,
        "others": [{"id": bob.id, "username": bob.user.username}],
    }
    # Written with the game's write, it is delivered as the others are (the player stream's
    # inbox lists it; a webhook of its kind would get it).
    listed = ok(ada.client.get("/api/v1/notifications/"))["results"]
    assert [n["kind"] for n in reversed(listed)] == kinds(ada)
