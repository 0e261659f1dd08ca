"""Ratings (issue 16): OpenSkill's Plackett-Luce over each finished game's final standing, written
with the game's end; bots are rated too; the leaderboard orders everyone by ordinal.

The expected values are computed here with the ``openskill`` package itself, from places this
test derives from the finished game's view (the winner, the scores, the order of the forfeits)."""

from __future__ import annotations

from typing import Any

import pytest
from openskill.models import PlackettLuce, PlackettLuceRating

from tests.support.players import Player
from tests.support.table import create_game, game_url, ok

MODEL = PlackettLuce()
LEADERBOARD = "/api/v1/leaderboard/"


def _profile(player: Player, player_id: int) -> dict[str, Any]:
    return ok(player.client.get(f"/api/v1/players/{player_id}/"))


def _rating(body: dict[str, Any]) -> PlackettLuceRating:
    return MODEL.rating(mu=body["rating"]["mu"], sigma=body["rating"]["sigma"])


def _expect(body: dict[str, Any], rating: PlackettLuceRating, played: int, won: int) -> None:
    assert body["rating"] == {
        "mu": pytest.approx(rating.mu, abs=1e-9),
        "sigma": pytest.approx(rating.sigma, abs=1e-9),
        "ordinal": pytest.approx(rating.ordinal(), abs=1e-9),
    }
    assert (body["games_played"], body["games_won"]) == (played, won)


def _fresh(count: int) -> list[list[PlackettLuceRating]]:
    """Teams of one at the starting rating: one object each (``rate`` updates its arguments)."""
    return [[MODEL.rating()] for _ in range(count)]


def _places(keys: list[Any]) -> list[float]:  # openskill's ranks
    """Places from sort keys (lower is better): equal keys share a place (1, 2, 2, 4)."""
    order = sorted(keys)
    return [order.index(key) + 1 for key in keys]


def _play_by_resigning(players: list[Player], resign_order: list[int]) -> str:
    host, *others = players
    game = create_game(host, max_players=len(players))["id"]
    for player in others:
        ok(player.client.post(game_url(game, "join")))
    for seat in resign_order:
        ok(players[seat].client.post(game_url(game, "resign")))
    assert ok(host.client.get(game_url(game)))["status"] == "finished"
    return game


@pytest.mark.django_db
def test_forfeits_rank_last_the_last_to_forfeit_first(players: list[Player]) -> None:
    ada, bob, cy, dee = players
    fresh = _profile(dee, ada.id)
    start = MODEL.rating()
    _expect(fresh, start, 0, 0)
    assert fresh["rating"]["ordinal"] == pytest.approx(0.0)

    _play_by_resigning([ada, bob, cy], resign_order=[1, 2])  # ada wins, cy forfeited after bob
    expected = MODEL.rate(_fresh(3), ranks=[1, 3, 2])
    for player, (rating,), won in zip((ada, bob, cy), expected, (1, 0, 0), strict=True):
        _expect(_profile(dee, player.id), rating, 1, won)

    # A second game goes on from the first's ratings: seats cy, ada, bob; cy forfeits, then bob.
    before = [_rating(_profile(dee, p.id)) for p in (cy, ada, bob)]
    _play_by_resigning([cy, ada, bob], resign_order=[0, 2])
    expected = MODEL.rate([[r] for r in before], ranks=[3, 1, 2])
    for player, (rating,), won in zip((cy, ada, bob), expected, (0, 2, 0), strict=True):
        _expect(_profile(dee, player.id), rating, 2, won)


@pytest.mark.django_db(transaction=True)  # the bots play after each commit
def test_a_game_won_on_points_rates_every_seat_bots_too(players: list[Player]) -> None:
    ada, dee = players[0], players[3]
    body = {
        "max_players": 4,
        "target_score": 1,  # the first round ends the game
        "rules": {"scoring": "penalty"},  # everyone scores their own hand: the lowest wins
        "bots": ["basic", "basic", "strong"],
        "bot_takeover": True,
    }
    game = ok(ada.client.post("/api/v1/games/", body, format="json"), 201)["id"]
    ok(ada.client.post(game_url(game, "resign")))  # a basic bot plays on for ada, to the end
    final = ok(dee.client.get(game_url(game)))
    assert final["status"] == "finished"
    seats = final["seats"]
    assert all(seat["status"] != "forfeited" for seat in seats)
    keys = [(seat["seat"] != final["winner_seat"], seat["score"]) for seat in seats]
    expected = MODEL.rate(_fresh(len(seats)), ranks=_places(keys))
    for seat, (rating,) in zip(seats, expected, strict=True):
        profile = _profile(dee, seat["player"]["id"])
        _expect(profile, rating, 1, int(seat["seat"] == final["winner_seat"]))
        assert profile.get("bot") == (None if seat["seat"] == 0 else seat["bot"])

    board = ok(dee.client.get(LEADERBOARD))
    assert board["count"] == 4
    entries = board["results"]
    assert [e["rank"] for e in entries] == [1, 2, 3, 4]
    ordinals = [e["rating"]["ordinal"] for e in entries]
    assert ordinals == sorted(ordinals, reverse=True)
    by_id = {e["player"]["id"]: e for e in entries}
    assert by_id.keys() == {seat["player"]["id"] for seat in seats}
    assert "bot" not in by_id[ada.id]
    assert sorted(e["bot"] for e in entries if "bot" in e) == ["basic", "basic", "strong"]


@pytest.mark.django_db
def test_the_leaderboard_pages_by_ordinal(players: list[Player], outsider: Player) -> None:
    ada, bob, cy, dee = players
    _play_by_resigning([ada, bob], resign_order=[1])
    _play_by_resigning([cy, dee], resign_order=[1])
    _play_by_resigning([ada, cy], resign_order=[1])  # ada: two wins; dee and bob: one loss each
    first = ok(outsider.client.get(LEADERBOARD, {"page_size": 2}))
    second = ok(outsider.client.get(LEADERBOARD, {"page_size": 2, "page": 2}))
    entries = first["results"] + second["results"]
    assert first["count"] == 4 and first["next"] and second["next"] is None
    assert [e["rank"] for e in entries] == [1, 2, 3, 4]
    assert entries[0]["player"] == {"id": ada.id, "username": ada.user.username}
    ordinals = [e["rating"]["ordinal"] for e in entries]
    assert ordinals == sorted(ordinals, reverse=True)
    assert outsider.id not in {e["player"]["id"] for e in entries}  # no finished game yet


@pytest.mark.django_db
def test_leaderboard_refusals(players: list[Player]) -> None:
    client = players[0].client
    for query in ({"page_size": 0}, {"page_size": 101}, {"page": 0}, {"sort": "mu"}):
        response = client.get(LEADERBOARD, query)
        assert response.status_code == 400 and response.json()["code"] == "invalid", query
