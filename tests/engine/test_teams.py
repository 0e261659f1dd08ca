"""Teams: partners, by seat number modulo the number of teams.

> `teams: 2` or `teams: 3` plays partners: with 4 players and `teams: 2`, seats 0 and 2 against 1
> and 3. A round ends when any player goes out; their team wins the round. In `winner` scoring it
> scores the cards left in the hands of the other teams (the partners' cards count nothing); in
> `penalty` scoring each team scores the points left in its members' hands. The team's total is
> the score of each of its seats, the game ends when a team reaches `target_score`; the view lists
> `winner_team`. A player may not catch their partner. Refused with `elimination`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from games.engine import IllegalMove, legal_actions, make_options, replay, start_game, view
from tests.support.scenario import HouseScenario, assert_all_cards, points, the

S0 = ["yellow-1", "yellow-2", "yellow-4", "yellow-6", "yellow-7", "green-7", "blue-7"]
S1 = ["blue-1", "blue-2", "blue-4", "blue-6", "blue-8", "green-8", "green-1"]
S2 = ["red-3", "red-3", "green-3", "green-3", "blue-3", "blue-3", "yellow-3"]
S3 = ["green-2", "green-4", "green-6", "yellow-8", "yellow-9", "blue-4", "green-2"]
DRAWS = ["green-9", "blue-9"]  # what seats 0 and 1 draw on the red 5: nothing that fits


def partners(**options: Any) -> HouseScenario:
    return HouseScenario([S0, S1, S2, S3], "red-5", DRAWS, teams=2, multi_play=True, **options)


def seat_2_goes_out(t: HouseScenario) -> Mapping[str, Any]:
    t.act(0, "draw")
    t.act(1, "draw")
    events = t.act(2, "play", cards=S2)
    return the(events, "round_ended")["data"]


def test_every_seat_shows_its_team() -> None:
    t = partners()
    seen = view(t.state, 1)
    assert [entry["team"] for entry in seen["seats"]] == [0, 1, 0, 1]
    assert seen["winner_team"] is None
    assert "team" not in view(HouseScenario([S0, S1], "red-5").state, 0)["seats"][0]


def test_a_round_won_by_a_partner_scores_the_other_teams_cards() -> None:
    t = partners(target_score=1000)
    ended = seat_2_goes_out(t)
    others = points([*S1, "blue-9"]) + points(S3)
    assert ended["winner_seat"] == 2
    assert ended["points"] == [others, 0, others, 0]  # seat 0's cards count nothing
    assert t.state.scores == (others, 0, others, 0)
    assert_all_cards(t)


def test_a_team_reaching_the_target_wins_the_game() -> None:
    t = partners(target_score=50)
    seat_2_goes_out(t)
    ended = the(t.log, "game_ended")["data"]
    assert (ended["winner_seat"], ended["winner_team"]) == (2, 0)
    assert t.state.status == "finished"
    assert view(t.state, 3)["winner_team"] == 0


def test_penalty_scoring_counts_each_teams_hands() -> None:
    t = partners(target_score=1000, scoring="penalty")
    ended = seat_2_goes_out(t)
    mine = points([*S0, "green-9"])
    theirs = points([*S1, "blue-9"]) + points(S3)
    assert ended["points"] == [mine, theirs, mine, theirs]


def test_a_player_may_not_catch_their_partner() -> None:
    t = partners()
    t.act(0, "draw")
    t.act(1, "draw")
    t.act(2, "play", cards=S2[:6])  # one card left, UNO not said
    assert t.state.catchable == {2}
    assert {"action": "catch", "target": 2} not in legal_actions(t.state, 0)
    assert t.refused(0, "catch", target=2).code == "nothing_to_catch"
    t.act(3, "catch", target=2)
    assert len(t.hand(2)) == 3
    assert_all_cards(t)


def test_a_team_that_has_left_loses_the_game() -> None:
    t = partners()
    t.resign(1)
    assert t.state.status == "active"
    events = t.resign(3)
    ended = the(events, "game_ended")["data"]
    assert ended["reason"] == "forfeit" and ended["winner_team"] == 0


@pytest.mark.parametrize(
    ("players", "teams", "rules"),
    [(3, 2, {}), (2, 2, {}), (4, 3, {}), (6, 4, {}), (4, 2, {"elimination": True})],
)
def test_teams_that_cannot_be_played_are_refused(
    players: int, teams: int, rules: dict[str, bool]
) -> None:
    with pytest.raises(IllegalMove) as info:
        start_game(players, make_options(rules, teams=teams), seed=1)
    assert info.value.code == "invalid_rules"
    if rules:
        assert "'teams'" in info.value.detail and "'elimination'" in info.value.detail


def test_six_players_in_three_teams() -> None:
    state = replay(start_game(6, make_options(teams=3), seed=1))
    assert [entry["team"] for entry in view(state, 0)["seats"]] == [0, 1, 2, 0, 1, 2]


def test_partners_see_only_their_own_hands() -> None:
    """Rule book: "Partners see only their own hands, like everyone else": seat 0 sees a
    count of its partner's (seat 2's) cards."""
    t = partners()
    seen = view(t.state, 0)
    assert seen["you"]["hand"] == S0
    assert all("hand" not in entry for entry in seen["seats"])
    assert seen["seats"][2]["hand_count"] == 7


def test_penalty_scoring_the_lowest_team_wins_and_winner_seat_went_out() -> None:
    """Rule book: "`winner_seat` names the seat that went out in the game's last round; in `penalty`
    scoring the team with the lowest total wins." Given totals of 60 for team 0 and 0 for team
    1 and a target of 100: seat 2 (team 0) goes out, team 0 reaches 103 and team 1 74; team 1
    wins the game, seat 2 is the winner_seat."""
    t = partners(target_score=100, scoring="penalty")
    t.set_table(scores=(60, 0, 60, 0))
    seat_2_goes_out(t)
    mine = points([*S0, "green-9"])
    theirs = points([*S1, "blue-9"]) + points(S3)
    assert (mine, theirs) == (43, 74)
    assert t.state.scores == (103, 74, 103, 74)
    ended = the(t.log, "game_ended")["data"]
    assert ended == {"winner_seat": 2, "reason": "target", "winner_team": 1}
    seen = view(t.state, 0)
    assert (seen["winner_seat"], seen["winner_team"]) == (2, 1)
