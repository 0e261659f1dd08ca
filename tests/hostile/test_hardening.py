"""The holes of issue 11 ("Hardening"), each reproduced as an outside attacker found it.

Each test here failed before its fix. The deployment's parts (nginx in front of gunicorn, the
admin's login, static files with debug off) are tested in tests/ops; this file holds what an API
client can do.
"""

from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from pytest_django.fixtures import Settings
from rest_framework.test import APIClient

from games.models import Game
from tests.games.helpers import GAMES, client_for
from tests.hostile.conftest import Table
from tests.hostile.test_hostile import refused

# --- 1. a seed from a player predicts every shuffle ----------------------------------------------


@pytest.fixture
def production_seeds(settings: Settings) -> None:
    """The production rule (the rest of the suite lets players give seeds, to reproduce games)."""
    settings.UNO_SEEDS_FROM_PLAYERS = False


def make_user(name: str, *, staff: bool = False) -> User:
    return User.objects.create_user(name, password=None, is_staff=staff)


def test_a_player_may_not_choose_the_seed(db: None, production_seeds: None) -> None:
    """With a seed of their choosing, a creator knows every hand dealt (the log of a finished game
    with that seed shows its deck) and can search seeds for a good hand."""
    mallory = client_for(make_user("mallory"))

    body = refused(mallory.post(GAMES, {"max_players": 2, "seed": 7}, format="json"), 403)

    assert body["code"] == "permission_denied"
    assert not Game.objects.exists(), "nothing was created"


def test_staff_may_still_reproduce_a_game(db: None, production_seeds: None) -> None:
    boss = client_for(make_user("boss", staff=True))

    answer = boss.post(GAMES, {"max_players": 2, "seed": 7}, format="json")

    assert answer.status_code == 201, answer.content
    assert Game.objects.get(pk=answer.json()["id"]).seed == 7


def test_without_a_seed_a_player_gets_a_secret_one(db: None, production_seeds: None) -> None:
    mallory = client_for(make_user("mallory"))

    answers: list[Any] = [mallory.post(GAMES, {"max_players": 2}, format="json") for _ in range(2)]

    assert [a.status_code for a in answers] == [201, 201]
    seeds = {Game.objects.get(pk=a.json()["id"]).seed for a in answers}
    assert len(seeds) == 2


# --- 6. racing registrations beat the case-insensitive username rule ----------------------------

REGISTER = "/api/v1/players/"
PASSWORD = "a sturdy pass phrase 42"


def test_the_database_refuses_a_username_that_differs_only_in_case(db: None) -> None:
    User.objects.create_user("RaceName", password=None)

    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user("racename", password=None)


@pytest.mark.django_db(transaction=True)
def test_racing_registrations_of_one_name_make_one_player() -> None:
    names = ["RaceName", "racename", "RACENAME", "raceName", "Racename", "rAcEnAmE"]
    barrier = threading.Barrier(len(names))

    def register(name: str) -> tuple[int, Any]:
        try:
            barrier.wait(timeout=30)
            answer = APIClient().post(
                REGISTER, {"username": name, "password": PASSWORD}, format="json"
            )
            return answer.status_code, answer.json()
        finally:
            connection.close()

    with ThreadPoolExecutor(len(names)) as pool:
        answers = list(pool.map(register, names))

    statuses = sorted(status for status, _ in answers)
    assert statuses == [201] + [409] * (len(names) - 1), answers
    assert {body["code"] for status, body in answers if status == 409} == {"username_taken"}
    assert User.objects.filter(username__iexact="racename").count() == 1


# --- 9. chunked request bodies were read as empty -----------------------------------------------


def chunked_post(client: APIClient, url: str, payload: dict[str, Any]) -> Any:
    """A body as a WSGI server hands over a chunked one: the bytes, and no Content-Length."""
    body = json.dumps(payload).encode()
    return client.generic(
        "POST",
        url,
        body,
        content_type="application/json",
        HTTP_TRANSFER_ENCODING="chunked",
        CONTENT_LENGTH="",
    )


def test_a_chunked_action_is_refused_as_such_not_read_as_empty(table: Table) -> None:
    before = table.snapshot()

    body = refused(chunked_post(table.actor, table.url("actions"), {"action": "draw"}), 411)

    assert body["code"] == "length_required" and "Content-Length" in body["detail"]
    assert table.snapshot() == before


def test_a_chunked_registration_is_refused_too(db: None) -> None:
    answer = chunked_post(APIClient(), REGISTER, {"username": "chunky", "password": PASSWORD})

    assert refused(answer, 411)["code"] == "length_required"
    assert not User.objects.filter(username="chunky").exists()
