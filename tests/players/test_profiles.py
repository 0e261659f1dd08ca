"""The caller's profile, public profiles and the statistics they carry."""

from __future__ import annotations

import itertools

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.models import Game, GameStatus, Seat
from tests.support.players import MakeUser

pytestmark = pytest.mark.django_db

ME = "/api/v1/players/me/"

_seeds = itertools.count(1)


def profile_url(player_id: int) -> str:
    return f"/api/v1/players/{player_id}/"


def make_game(status: str, seated: list[User], winner_seat: int | None = None) -> Game:
    """A game row with ``seated`` in seats 0, 1, ... (no engine: the stats read rows only)."""
    game = Game.objects.create(
        status=status, seed=next(_seeds), created_by=seated[0], winner_seat=winner_seat
    )
    for number, player in enumerate(seated):
        Seat.objects.create(game=game, number=number, player=player)
    return game


def test_me_needs_a_token(api: APIClient) -> None:
    for header in (None, "Token nope"):
        api.credentials(**({"HTTP_AUTHORIZATION": header} if header else {}))
        response = api.get(ME)

        assert response.status_code == 401
        assert response.json()["code"] == "not_authenticated"


def test_me_shows_staff(make_player: MakeUser) -> None:
    staff = make_player("root", is_staff=True)
    client = APIClient()
    client.force_authenticate(staff)

    assert client.get(ME).json()["is_staff"] is True


def test_public_profile(authed: APIClient, make_player: MakeUser) -> None:
    bob = make_player("bob")

    response = authed.get(profile_url(bob.pk))

    assert response.status_code == 200
    body = response.json()
    assert set(body) == {  # no is_staff
        "id",
        "username",
        "date_joined",
        "stats",
        "rating",
        "games_played",
        "games_won",
        "guest",
        "bot_account",
    }
    assert body["guest"] is False and body["bot_account"] is False
    assert body["id"] == bob.pk
    assert body["username"] == "bob"
    assert body["stats"] == {"games_played": 0, "games_won": 0, "games_active": 0}


def test_a_profile_is_found_by_username(
    authed: APIClient, api: APIClient, make_player: MakeUser
) -> None:
    """A link to a player by name opened only for the names a client had met (its games, the
    leaderboard): a new player's said "Not found"."""
    bob = make_player("Bob")
    by_id = authed.get(profile_url(bob.pk)).json()
    for name in ("Bob", "bob", "BOB"):
        answer = authed.get(f"/api/v1/players/by-name/{name}/")
        assert answer.status_code == 200 and answer.json() == by_id
    # A NUL in the name was a 500 (PostgreSQL's text holds none); no name holds one, nor 151
    # letters.
    for name in ("nobody", "bo", "bob%20", "%00", "b%00b", "b" * 151):
        answer = authed.get(f"/api/v1/players/by-name/{name}/")
        assert answer.status_code == 404 and answer.json()["code"] == "not_found"
    assert api.get("/api/v1/players/by-name/bob/").status_code == 401


def test_public_profile_of_unknown_player(authed: APIClient, player: User) -> None:
    for player_id in (player.pk + 1000, 2**31, 10**30):
        response = authed.get(profile_url(player_id))

        assert response.status_code == 404
        assert response.json()["code"] == "not_found"


def test_public_profile_needs_a_token(api: APIClient, player: User) -> None:
    response = api.get(profile_url(player.pk))

    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


def test_stats_count_finished_won_and_active_games(
    authed: APIClient, player: User, make_player: MakeUser
) -> None:
    bob, carol = make_player("bob"), make_player("carol")
    make_game(GameStatus.FINISHED, [player, bob], winner_seat=0)  # alice won at seat 0
    make_game(GameStatus.FINISHED, [bob, player, carol], winner_seat=1)  # alice won at seat 1
    make_game(GameStatus.FINISHED, [player, bob], winner_seat=1)  # bob won
    make_game(GameStatus.FINISHED, [carol, bob], winner_seat=0)  # alice not in it
    make_game(GameStatus.ACTIVE, [bob, player])
    make_game(GameStatus.ACTIVE, [player, carol])
    make_game(GameStatus.ACTIVE, [bob, carol])  # alice not in it
    make_game(GameStatus.WAITING, [player])
    make_game(GameStatus.ABANDONED, [player, bob], winner_seat=0)

    me = authed.get(ME).json()["stats"]
    bobs = authed.get(profile_url(bob.pk)).json()["stats"]
    carols = authed.get(profile_url(carol.pk)).json()["stats"]

    assert me == {"games_played": 3, "games_won": 2, "games_active": 2}
    assert bobs == {"games_played": 4, "games_won": 1, "games_active": 2}
    assert carols == {"games_played": 2, "games_won": 1, "games_active": 2}
    assert authed.get(profile_url(player.pk)).json()["stats"] == me
