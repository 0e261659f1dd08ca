"""The holes of issue 11 ("Hardening"), each reproduced as an outside attacker found it.

Each test here failed before its fix. The deployment's parts (nginx in front of gunicorn, the
admin's login, static files with debug off) are tested in tests/ops; this file holds what an API
client can do.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from pytest_django.fixtures import Settings

from games.models import Game
from tests.games.helpers import GAMES, client_for
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
