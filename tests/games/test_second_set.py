"""The second set of house rules and teams through the API: presets on creation, teams in every
view (a waiting game's too), a 2's gift seen by the giver and the receiver only."""

from __future__ import annotations

import pytest

from games.engine.options import PRESETS
from tests.support.players import Player
from tests.support.scenario import IDLE_1, IDLE_2
from tests.support.table import (
    GAMES,
    create_game,
    deck_table,
    game_url,
    ok,
    refused,
    seat_players,
)

pytestmark = pytest.mark.django_db


def test_the_presets_and_explicit_rules_over_them(players: list[Player]) -> None:
    official = create_game(players[0])["settings"]["rules"]
    assert not any(v is True for v in official.values())
    party = create_game(players[0], preset="party", rules={"jump_in": False})["settings"]["rules"]
    on = {name for name, value in party.items() if value is True}
    assert on == {"stacking", "seven_zero", "draw_until_playable"}
    house = create_game(players[1], preset="house")["settings"]["rules"]
    assert {name for name, value in house.items() if value is True} == set(PRESETS["house"])
    assert not house["seven_zero"] and not house["zero_swap"] and house["eight_again"]
    picked = create_game(players[2], preset="house", rules={"zero_swap": True})
    assert picked["settings"]["rules"]["zero_swap"] is True
    refused(players[3].client.post(GAMES, {"preset": "street"}, format="json"), 400, "invalid")


def test_refused_combinations_at_creation(players: list[Player]) -> None:
    body = refused(
        players[0].client.post(
            GAMES, {"rules": {"zero_swap": True, "seven_zero": True}}, format="json"
        ),
        400,
        "invalid_rules",
    )
    assert "'zero_swap'" in body["detail"] and "'seven_zero'" in body["detail"]
    for settings in (
        {"teams": 2, "max_players": 3},
        {"teams": 4, "max_players": 4},
        {"teams": 2, "max_players": 4, "rules": {"elimination": True}},
        {"teams": True},
    ):
        response = players[0].client.post(GAMES, settings, format="json")
        assert response.status_code == 400, settings
        assert response.json()["code"] in ("invalid", "invalid_rules")


def test_teams_in_the_settings_and_every_view(players: list[Player]) -> None:
    game = create_game(players[0], max_players=4, teams=2, preset="house")
    assert game["settings"]["teams"] == 2
    assert not game["settings"]["rules"]["elimination"]  # left out of house with teams
    assert [s["team"] for s in game["seats"]] == [0]
    assert game["winner_team"] is None
    table = seat_players(players[0], players[1:], game)
    view = table.view(1)
    assert view["status"] == "active"
    assert [s["team"] for s in view["seats"]] == [0, 1, 0, 1]
    assert view["settings"]["teams"] == 2 and "teams" not in view["settings"]["rules"]


def test_a_teams_game_starts_only_with_whole_teams(players: list[Player]) -> None:
    game = create_game(players[0], max_players=4, teams=2)
    ok(players[1].client.post(game_url(game["id"], "join")))
    ok(players[2].client.post(game_url(game["id"], "join")))
    refused(players[0].client.post(game_url(game["id"], "start")), 409, "not_enough_players")


def test_a_gift_through_the_api(staff: Player, players: list[Player]) -> None:
    giver = ["red-2", "blue-5", "green-9", "yellow-7", "red-3", "green-6", "yellow-9"]
    table = deck_table(
        staff, players[:2], [giver, IDLE_1, IDLE_2], "red-5", rules={"two_gives": True}
    )
    listed = table.view(0)["you"]["legal_actions"]
    assert {"action": "play", "card": "red-2"} in listed
    bad = table.post(0, {"action": "play", "card": "red-2", "give": ["blue-5"] * 3, "target": 2})
    refused(bad, 422, "illegal_gift")
    table.act(0, "play", card="red-2", give=["blue-5", "green-9"], target=2)
    assert table.hand(2)[-2:] == ["blue-5", "green-9"]
    for seat, sees in ((0, True), (1, False), (2, True)):
        events = table.events(seat)["events"]
        gift = next(e for e in events if e["type"] == "cards_given")
        assert ("cards" in gift["data"]) is sees and gift["data"]["count"] == 2


def test_a_partner_going_out_wins_the_game_for_the_team(
    staff: Player, players: list[Player]
) -> None:
    """The engine's teams scenario through the API: seat 2 sheds seven 3s and the team of seats
    0 and 2 reaches the target; each partner's profile counts the win."""
    from tests.engine.test_teams import DRAWS, S0, S1, S2, S3

    table = deck_table(
        staff,
        players[:3],
        [S0, S1, S2, S3],
        "red-5",
        DRAWS,
        teams=2,
        target_score=50,
        rules={"multi_play": True},
    )
    table.act(0, "draw")
    table.act(1, "draw")
    view = table.act(2, "play", cards=S2)
    assert view["status"] == "finished"
    assert (view["winner_seat"], view["winner_team"]) == (2, 0)
    scores = [s["score"] for s in view["seats"]]
    assert scores[0] == scores[2] >= 50 and scores[1] == scores[3] == 0
    won = [ok(p.client.get("/api/v1/players/me/"))["stats"]["games_won"] for p in table.players]
    assert won == [1, 0, 1, 0]
