"""Names a person may not take: a built-in bot's (``bot-<level>-<n>``). The contract promises that
``bot-random-1``, ``bot-basic-1`` and ``bot-strong-1`` are the server's bots, always there to
challenge; a person who registered one of those names first received the challenges meant for
the bot and sat at its table unmarked."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tests.support.players import PASSWORD, Player, client_with
from tests.support.table import game_url, ok, refused

pytestmark = pytest.mark.django_db

REGISTER = "/api/v1/players/"
GUEST = "/api/v1/players/guest/"
CLAIM = "/api/v1/players/me/claim/"
CHALLENGES = "/api/v1/challenges/"


@pytest.mark.parametrize("name", ["bot-strong-1", "BOT-Basic-1", "bot-random-12", "Bot-basic-70"])
def test_nobody_registers_or_claims_a_built_in_bots_name(name: str) -> None:
    anyone = APIClient()
    body = {"username": name, "password": PASSWORD}
    refused(anyone.post(REGISTER, body, format="json"), 400, "username_reserved")
    guest = ok(anyone.post(GUEST), 201)
    refused(client_with(guest["token"]).post(CLAIM, body, format="json"), 400, "username_reserved")
    assert not User.objects.filter(username__iexact=name).exists()


@pytest.mark.parametrize("name", ["bot-stronger-1", "bot-basic", "robot-basic-1", "bot-basic-1x"])
def test_names_merely_like_a_bots_are_fine(name: str) -> None:
    made = ok(APIClient().post(REGISTER, {"username": name, "password": PASSWORD}, "json"), 201)
    assert made["username"] == name


def test_a_challenge_to_the_first_bot_of_a_level_reaches_the_bot(players: list[Player]) -> None:
    ada = players[0]
    squatter = {"username": "bot-strong-1", "password": PASSWORD}
    refused(APIClient().post(REGISTER, squatter, format="json"), 400, "username_reserved")

    made = ok(ada.client.post(CHALLENGES, {"to": "bot-strong-1"}, format="json"), 201)
    assert made["status"] == "accepted"  # a bot accepts at once; a person would not
    seats = ok(ada.client.get(game_url(made["game"])))["seats"]
    assert seats[1]["player"]["username"] == "bot-strong-1" and seats[1]["bot"] == "strong"


def test_a_name_taken_before_it_was_reserved_gets_no_challenge_meant_for_the_bot(
    players: list[Player],
) -> None:
    """A person who registered ``bot-strong-1`` before the bots' names were reserved keeps the
    name, but a challenge to it goes to the level's first bot (now ``bot-strong-2``)."""
    from players.admin import UserChange

    squatter = User.objects.create_user("bot-strong-1", password=None)
    made = ok(players[0].client.post(CHALLENGES, {"to": "BOT-strong-1"}, format="json"), 201)
    assert made["status"] == "accepted" and made["challenged"]["id"] != squatter.pk
    seat = ok(players[0].client.get(game_url(made["game"])))["seats"][1]
    assert seat["bot"] == "strong" and seat["player"]["username"] == "bot-strong-2"
    assert not squatter.notifications.exists()
    refused(players[0].client.post(CHALLENGES, {"to": "bot-strong-7"}, "json"), 404, "not_found")

    # Staff editing the person's account leave the name as it is.
    fields = {"username": squatter.username, "is_active": "on", "date_joined": "2026-01-01"}
    assert UserChange(data=fields, instance=squatter).is_valid()
