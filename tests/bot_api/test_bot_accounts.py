"""Bot accounts through HTTP (issue 26, part 3): a player makes their own account a bot account
before its first game; it is shown as one in its profile, its seats and the leaderboard; its
token is scoped to play; quick match keeps it away from people unless bots are welcome; a host
seats it by name; its challenges wait for its program."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Challenge, Game, Tournament, TournamentStatus
from notifications.models import Notification, PushSubscription, Webhook
from players.models import BotAccount, Session
from players.sessions import session_start
from tests.bot_api.conftest import BOT_ACCOUNT
from tests.support.players import MakePlayer, Player, client_with
from tests.support.table import GAMES, create_game, game_url, ok, refused
from tests.support.tournaments import create as create_tournament
from tests.support.tournaments import start_now
from tests.support.tournaments import url as tournament_url

pytestmark = pytest.mark.django_db

ME = "/api/v1/players/me/"
MATCH = "/api/v1/matchmaking/"
CHALLENGES = "/api/v1/challenges/"
LEADERBOARD = "/api/v1/leaderboard/"


def _challenge(challenger: Player, challenged: Player, **body: Any) -> Any:
    """``POST /challenges/`` to ``challenged`` (the one place this suite names its fields)."""
    body = {"to": challenged.user.username, **body}
    return challenger.client.post(CHALLENGES, body, format="json")


def _seat_markers(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {key: seat[key] for key in ("bot", "bot_account") if key in seat} for seat in view["seats"]
    ]


# --- the endpoint --------------------------------------------------------------------------------


def test_an_account_becomes_a_bot_account_before_its_first_game_and_asking_twice_is_the_same(
    make_player: MakePlayer,
) -> None:
    program, viewer = make_player("prog"), make_player("viewer")
    assert ok(program.client.get(ME))["bot_account"] is False

    first = ok(program.client.post(BOT_ACCOUNT))
    again = ok(program.client.post(BOT_ACCOUNT))

    assert first["bot_account"] is True and first["id"] == program.id
    assert again == first
    assert BotAccount.objects.filter(user=program.user).count() == 1
    assert ok(program.client.get(ME))["bot_account"] is True
    assert ok(viewer.client.get(f"/api/v1/players/{program.id}/"))["bot_account"] is True
    assert ok(program.client.get(f"/api/v1/players/{viewer.id}/"))["bot_account"] is False


def test_an_account_that_has_sat_in_a_game_stays_a_person(players: list[Player]) -> None:
    ada, bob, cy, _ = players
    create_game(ada, max_players=3)  # waiting: a seat is a seat
    game = create_game(bob, max_players=2)["id"]
    ok(cy.client.post(game_url(game, "join")))
    ok(cy.client.post(game_url(game, "resign")))  # finished

    for player in (ada, bob, cy):
        refused(player.client.post(BOT_ACCOUNT), 409, "account_has_played")
        assert ok(player.client.get(ME))["bot_account"] is False
    assert not BotAccount.objects.exists()


def test_a_guest_cannot_become_a_bot_account_until_it_is_claimed() -> None:
    made = APIClient().post("/api/v1/players/guest/")
    assert made.status_code == 201, made.json()
    guest = client_with(made.json()["access"])

    refused(guest.post(BOT_ACCOUNT), 409, "guest_account")
    assert ok(guest.get(ME))["bot_account"] is False

    claim = {"username": "deep-uno", "password": "correct-horse-battery-9"}
    ok(guest.post("/api/v1/players/me/claim/", claim, format="json"))
    assert ok(guest.post(BOT_ACCOUNT))["bot_account"] is True


def test_the_endpoint_needs_a_token() -> None:
    refused(APIClient().post(BOT_ACCOUNT), 401, "not_authenticated")


# --- the scope of a bot account's token ----------------------------------------------------------


def test_a_bot_accounts_token_is_refused_the_account_changes_and_changes_nothing(
    make_player: MakePlayer, make_bot_account: MakePlayer, settings: Any
) -> None:
    program, person = make_bot_account(), make_player("person")
    push = {
        "endpoint": "https://1.1.1.1/push/1",
        "keys": {
            "p256dh": "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQ",
            "auth": "tBHItJI5svbpez7KI4CCXg",
        },
    }
    settings.UNO_VAPID_PRIVATE_KEY = ""  # a person is told push is not offered; a bot, its scope
    claim = {"username": "renamed", "password": "correct-horse-battery-9"}

    refused(
        program.client.post("/api/v1/players/me/claim/", claim, format="json"),
        403,
        "bot_account_scope",
    )
    refused(
        program.client.post("/api/v1/push/subscriptions/", push, format="json"),
        403,
        "bot_account_scope",
    )
    # The same calls by a person get their own answers: the scope is the bot account's alone.
    refused(
        person.client.post("/api/v1/players/me/claim/", claim, format="json"), 409, "not_a_guest"
    )
    refused(
        person.client.post("/api/v1/push/subscriptions/", push, format="json"),
        404,
        "push_not_configured",
    )
    assert ok(program.client.get(ME))["username"] == program.user.username
    assert not PushSubscription.objects.exists()

    # Play, its profile, webhooks and its sessions stay open to it.
    assert ok(program.client.post(BOT_ACCOUNT))["bot_account"] is True
    game = ok(program.client.post(GAMES, {"max_players": 2, "bots": ["basic"]}, format="json"), 201)
    assert game["status"] == "active" and game["you"]["seat"] == 0
    settings.UNO_WEBHOOKS_ALLOW_PRIVATE = True
    hook = {"url": "https://1.1.1.1/hook", "kinds": ["your_turn", "invited"]}
    ok(program.client.post("/api/v1/webhooks/", hook, format="json"), 201)
    assert Webhook.objects.filter(player=program.user).count() == 1
    other = session_start(user=program.user)  # its owner's sign-in elsewhere
    listed = ok(program.client.get("/api/v1/players/me/sessions/"))
    assert {row["id"] for row in listed} >= {str(other.session.pk)}
    response = program.client.delete(f"/api/v1/players/me/sessions/{other.session.pk}/")
    assert response.status_code == 204
    assert Session.objects.get(pk=other.session.pk).ended_at is not None
    refused(client_with(other.access).get(ME), 401, "not_authenticated")


# --- shown as a bot account, rated on the one leaderboard ----------------------------------------


def test_a_host_seats_a_bot_account_by_name_and_it_shows_as_one_everywhere(
    players: list[Player], make_bot_account: MakePlayer
) -> None:
    ada, bob, _, _ = players
    program = make_bot_account("DeepUno")

    view = ok(
        ada.client.post(
            GAMES,
            {"max_players": 3, "bot_accounts": [program.user.username.lower()], "bots": ["basic"]},
            format="json",
        ),
        201,
    )

    assert view["status"] == "active"  # the creator, the bot account and the bot fill it
    assert [seat["player"]["id"] for seat in view["seats"]][:2] == [ada.id, program.id]
    assert _seat_markers(view) == [{}, {"bot_account": True}, {"bot": "basic"}]
    # Its program is told, like any invited player, and plays the seat through the API.
    invited = Notification.objects.get(player=program.user, kind="invited")
    assert str(invited.game_id) == view["id"] and invited.data["by"]["id"] == ada.id
    own = ok(program.client.get(game_url(view["id"])))
    assert own["you"]["seat"] == 1
    listed = ok(bob.client.get(GAMES))["results"]
    assert [_seat_markers(game) for game in listed if game["id"] == view["id"]] == [
        [{}, {"bot_account": True}, {"bot": "basic"}]
    ]

    ok(ada.client.post(game_url(view["id"], "resign")))
    ok(program.client.post(game_url(view["id"], "resign")))
    finished = ok(bob.client.get(game_url(view["id"])))
    assert finished["status"] == "finished"
    assert _seat_markers(finished) == [{}, {"bot_account": True}, {"bot": "basic"}]
    board = {row["player"]["id"]: row for row in ok(bob.client.get(LEADERBOARD))["results"]}
    assert board[program.id]["bot_account"] is True and board[program.id]["games_played"] == 1
    assert "bot_account" not in board[ada.id] and "bot" not in board[program.id]
    assert board[ada.id]["games_played"] == 1


def test_seating_by_name_refuses_what_is_not_a_bot_account_and_changes_nothing(
    players: list[Player], make_bot_account: MakePlayer
) -> None:
    ada, bob, _, _ = players
    program = make_bot_account()
    for names in (["nobody-here"], [bob.user.username], [program.user.username, "nobody-here"]):
        body = {"max_players": 4, "bot_accounts": names}
        refused(ada.client.post(GAMES, body, format="json"), 400, "not_a_bot_account")
    too_many = {"max_players": 2, "bot_accounts": [program.user.username], "bots": ["basic"]}
    refused(ada.client.post(GAMES, too_many, format="json"), 400, "invalid")
    assert not Game.objects.exists()

    # POST /games/{id}/bots/ seats one by name too, once, and only by the host.
    game = create_game(ada, max_players=4)["id"]
    bots = game_url(game, "bots")
    refused(
        ada.client.post(bots, {"account": "nobody-here"}, format="json"), 400, "not_a_bot_account"
    )
    both = {"account": program.user.username, "level": "basic"}
    refused(ada.client.post(bots, both, format="json"), 400, "invalid")
    refused(ada.client.post(bots, {}, format="json"), 400, "invalid")
    seated = ok(ada.client.post(bots, {"account": program.user.username}, format="json"))
    assert _seat_markers(seated) == [{}, {"bot_account": True}]
    refused(
        ada.client.post(bots, {"account": program.user.username}, format="json"),
        409,
        "already_seated",
    )
    assert ok(ada.client.post(bots, {"level": "basic"}, format="json"))["status"] == "waiting"
    ok(bob.client.post(game_url(game, "join")))
    refused(
        bob.client.post(bots, {"account": program.user.username}, format="json"), 409, "game_full"
    )
    assert Notification.objects.filter(player=program.user, kind="invited").count() == 1


# --- quick match ---------------------------------------------------------------------------------


def test_quick_match_keeps_bot_accounts_from_people_unless_bots_are_welcome(
    players: list[Player], make_bot_account: MakePlayer
) -> None:
    ada, bob, cy, dee = players
    program = make_bot_account()

    refused(program.client.post(MATCH, {"players": 2}, format="json"), 403, "bots_not_welcome")
    assert not Game.objects.exists()
    for_people = ok(ada.client.post(MATCH, {"players": 2}, format="json"))
    assert "bots_welcome" not in for_people["settings"]

    welcoming = ok(program.client.post(MATCH, {"players": 2, "bots_welcome": True}, format="json"))
    assert welcoming["id"] != for_people["id"] and welcoming["settings"]["bots_welcome"] is True
    assert _seat_markers(welcoming) == [{"bot_account": True}]
    # Not by id either: the people's game is for people.
    refused(program.client.post(game_url(for_people["id"], "join")), 403, "bots_not_welcome")

    # A person without the flag meets the person waiting; one with it, the bot account.
    assert ok(bob.client.post(MATCH, {"players": 2}, format="json"))["id"] == for_people["id"]
    met = ok(cy.client.post(MATCH, {"players": 2, "bots_welcome": True}, format="json"))
    assert met["id"] == welcoming["id"] and met["status"] == "active"
    assert [seat["player"]["id"] for seat in met["seats"]] == [program.id, cy.id]

    # A game made with bots_welcome takes a bot account's join; a person's join as before.
    open_game = ok(
        dee.client.post(GAMES, {"max_players": 3, "bots_welcome": True}, format="json"), 201
    )
    assert open_game["settings"]["bots_welcome"] is True
    other = make_bot_account("other")
    joined = ok(other.client.post(game_url(open_game["id"], "join")))
    assert _seat_markers(joined) == [{}, {"bot_account": True}]


# --- challenges ----------------------------------------------------------------------------------


def test_a_challenge_to_a_bot_account_waits_for_its_program(
    players: list[Player], make_bot_account: MakePlayer
) -> None:
    ada, _, _, _ = players
    program = make_bot_account()

    made = ok(_challenge(ada, program, settings={"turn_timeout": 30}), 201)

    assert made["game"] is None and made["status"] == "open"  # a built-in bot's: accepted
    assert not Game.objects.exists()
    note = Notification.objects.get(player=program.user, kind="challenge")
    assert note.data["challenge"] == made["id"]
    accepted = ok(program.client.post(f"{CHALLENGES}{made['id']}/accept/"))
    assert accepted["status"] == "accepted"
    game = ok(program.client.get(game_url(accepted["game"])))
    assert game["status"] == "active" and _seat_markers(game) == [{}, {"bot_account": True}]

    declined = ok(_challenge(ada, program), 201)
    assert ok(program.client.post(f"{CHALLENGES}{declined['id']}/decline/"))["status"] == "declined"
    assert Challenge.objects.filter(game__isnull=True).count() == 1


# --- tournaments ---------------------------------------------------------------------------------


def test_a_bot_account_enters_only_tournaments_whose_host_allows_bots(
    players: list[Player], make_bot_account: MakePlayer
) -> None:
    host, person, _, _ = players
    program = make_bot_account()
    closed = create_tournament(host)
    open_to_bots = create_tournament(host, bots_allowed=True)

    refused(program.client.post(tournament_url(closed["id"], "join")), 403, "bots_not_allowed")
    ok(person.client.post(tournament_url(closed["id"], "join")))
    ok(program.client.post(tournament_url(open_to_bots["id"], "join")))


def test_a_bot_account_is_marked_at_its_tournament_table_and_in_the_tournament(
    players: list[Player], make_bot_account: MakePlayer
) -> None:
    host, person, _, _ = players
    program = make_bot_account()
    tournament = create_tournament(host, bots_allowed=True, table_size=3, rounds=1)
    tid = tournament["id"]
    for player in (person, program):
        ok(player.client.post(tournament_url(tid, "join")))
    start_now(tid)

    detail = ok(host.client.get(tournament_url(tid)))
    (table,) = detail["rounds"][0]["tables"]
    view = ok(person.client.get(game_url(table["game"])))
    markers = {seat["player"]["id"]: _seat_markers({"seats": [seat]})[0] for seat in view["seats"]}
    assert markers[person.id] == {} and markers[program.id] == {"bot_account": True}
    (filler,) = (markers[pid] for pid in markers if pid not in (person.id, program.id))
    assert filler == {"bot": "basic"}  # the short table's bot, as ever
    assert {p["id"]: p["bot_account"] for p in detail["players"]} == {
        person.id: False,
        program.id: True,
    }
    assert {s["player"]: s["bot_account"] for s in detail["standings"]} == {
        person.id: False,
        program.id: True,
    }


def test_an_entrant_of_a_tournament_without_bots_becomes_a_bot_account_only_once_out(
    players: list[Player],
) -> None:
    host, ada, bob, cy = players
    closed = create_tournament(host)["id"]
    open_to_bots = create_tournament(host, bots_allowed=True)["id"]
    ok(ada.client.post(tournament_url(closed, "join")))
    # Ada would be paired there as a person: refused, nothing changes.
    refused(ada.client.post(BOT_ACCOUNT), 409, "in_tournament_without_bots")
    assert not BotAccount.objects.filter(user_id=ada.id).exists()
    ok(ada.client.post(tournament_url(closed, "withdraw")))
    assert ok(ada.client.post(BOT_ACCOUNT))["bot_account"] is True
    # A tournament that takes bots is no obstacle, nor one that is over.
    ok(bob.client.post(tournament_url(open_to_bots, "join")))
    assert ok(bob.client.post(BOT_ACCOUNT))["bot_account"] is True
    ok(cy.client.post(tournament_url(closed, "join")))
    Tournament.objects.filter(pk=closed).update(status=TournamentStatus.FINISHED)
    assert ok(cy.client.post(BOT_ACCOUNT))["bot_account"] is True
