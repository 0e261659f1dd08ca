"""The official rules: running out of cards to draw, the end of a round, scoring, the next round.

Most scenarios use the red run: seat 0 holds red 1 to 6 and one more card, the starter is a red 9,
and seats 1 and 2 draw a card that does not fit each time seat 0 plays. When seat 0 goes out,
seat 1 holds IDLE_1 (133 points) and six cards drawn (yellow 8, blue 8, green 9, twice: 50
points); seat 2 holds IDLE_2 (93 points) and six cards drawn (green 8, yellow 9, blue 9, twice: 52
points).
"""

from __future__ import annotations

from collections import Counter

from games.engine import DECK, event_view, view
from tests.support.scenario import (
    IDLE_1,
    IDLE_2,
    RED_RUN,
    UNPLAYABLE,
    Scenario,
    drawn,
    points,
    red_run,
    red_run_to,
    seat_0_plays,
    the,
    types,
)

SEAT_1_DREW = UNPLAYABLE[0::2]
SEAT_2_DREW = UNPLAYABLE[1::2]


def go_out(t: Scenario, last: str, **fields) -> list:
    """Play the red run to its end: red 1 to 6 (UNO said with the red 6), then ``last``."""
    red_run_to(t, 2)
    seat_0_plays(t, "red-6", uno=True)
    return t.act(0, "play", card=last, **fields)


def test_the_red_run_points():
    """The points the red run leaves in the others' hands (see the module docstring)."""
    assert points(IDLE_1) == 1 + 2 + 3 + 20 + 50 + 50 + 7 == 133
    assert points(IDLE_2) == 1 + 2 + 20 + 20 + 0 + 0 + 50 == 93
    assert points(SEAT_1_DREW) == 50
    assert points(SEAT_2_DREW) == 52


# --- an empty draw pile --------------------------------------------------------------------

SEAT_0 = ["red-draw2", "red-8", "green-3", "blue-7", "yellow-9", "green-skip", "blue-draw2"]


def test_an_empty_draw_pile_is_refilled_from_the_discard_pile_but_its_top_card():
    """Rule book: "When the draw pile is empty, the discard pile except its top card is shuffled
    into a new draw pile." Given a draw pile of one card, and the rest of the cards under the
    red 3 on the discard pile: seat 0's draw2 makes seat 1 draw the last card, then one from the
    new pile."""
    t = Scenario([SEAT_0, IDLE_1, IDLE_2], "red-3")
    last, *rest = t.state.draw_pile
    t.set_table(draw_pile=(last,), discard_pile=(*rest, "red-3"))

    events = t.act(0, "play", card="red-draw2")
    assert types(events) == [
        "card_played",
        "cards_drawn",
        "pile_reshuffled",
        "cards_drawn",
        "turn_changed",
    ]
    reshuffled = the(events, "pile_reshuffled")["data"]["draw_pile"]
    assert Counter(reshuffled) == Counter([*rest, "red-3"])  # all but the red draw2
    assert drawn(events, 1) == [last, reshuffled[0]]
    assert t.state.discard_pile == ("red-draw2",)
    assert t.state.draw_pile == tuple(reshuffled[1:])
    assert t.state.top_card == "red-draw2"
    assert t.state.current == 2
    # the order of the new pile is a secret: the other seats see how many cards it holds
    seen = event_view(the(events, "pile_reshuffled"), 2, revealed=False)
    assert seen["data"]["draw_pile_count"] == len(reshuffled)
    assert "draw_pile" not in seen["data"]


def test_when_both_piles_are_exhausted_a_player_draws_what_there_is():
    """Rule book: "If both are exhausted a player who must draw simply draws what there is."
    Given an empty draw pile and only the red 3 on the discard pile (seat 2 holds every other
    card): seat 1 owes two cards and gets the red 3 only; seat 2 then draws nothing, and the
    turn goes on."""
    t = Scenario([SEAT_0, IDLE_1, IDLE_2], "red-3")
    hoard = (*IDLE_2, *t.state.draw_pile)
    t.set_table(draw_pile=(), hands=(tuple(SEAT_0), tuple(IDLE_1), hoard))

    events = t.act(0, "play", card="red-draw2")
    assert drawn(events, 1) == ["red-3"]
    assert t.hand(1) == [*IDLE_1, "red-3"]
    assert t.state.draw_pile == ()
    assert t.state.discard_pile == ("red-draw2",)
    assert t.state.current == 2

    t.act(2, "draw")
    assert t.hand(2) == list(hoard)
    assert t.state.current == 0
    assert t.state.pending is None


# --- the end of a round --------------------------------------------------------------------


def test_a_round_ends_when_a_player_plays_their_last_card():
    """Rule book: "A round ends when a player plays their last card." The winner scores the
    total of all other hands (`scoring: "winner"`, the default)."""
    t = red_run()
    events = go_out(t, "red-7")
    ended = the(events, "round_ended")["data"]
    assert ended["number"] == 1
    assert ended["winner_seat"] == 0
    assert ended["hands"] == [[], [*IDLE_1, *SEAT_1_DREW], [*IDLE_2, *SEAT_2_DREW]]
    assert ended["points"] == [183 + 145, 0, 0]
    assert t.state.scores == (328, 0, 0)
    last_round = view(t.state, 1)["last_round"]
    assert last_round["winner_seat"] == 0
    assert last_round["points"] == [328, 0, 0]


def test_a_final_draw2_makes_the_next_player_draw_before_counting():
    """Rule book: "The last card's effect still applies (a final draw2 ... makes the next player
    draw before counting)." Seat 1 draws a red 0 and a green skip: 20 more points for seat 0."""
    t = red_run(last="red-draw2", after=["red-0", "green-skip"])
    events = go_out(t, "red-draw2")
    assert types(events)[:3] == ["card_played", "cards_drawn", "round_ended"]
    assert drawn(events, 1) == ["red-0", "green-skip"]
    ended = the(events, "round_ended")["data"]
    assert ended["hands"][1] == [*IDLE_1, *SEAT_1_DREW, "red-0", "green-skip"]
    assert ended["points"] == [183 + 0 + 20 + 145, 0, 0]


def test_a_final_wild_draw4_makes_the_next_player_draw_four_before_counting():
    """Rule book: "... a final draw2 or wild-draw4 makes the next player draw before counting":
    no chance to challenge (engine docstring: "A card that empties a hand applies its draw at
    once")."""
    four = ["red-0", "yellow-0", "blue-4", "green-4"]
    t = red_run(last="wild-draw4", after=four)
    events = go_out(t, "wild-draw4", color="green")
    assert drawn(events, 1) == four
    ended = the(events, "round_ended")["data"]
    assert ended["points"] == [183 + 0 + 0 + 4 + 4 + 145, 0, 0]


def test_card_points_in_a_hand_numbers_actions_and_wilds():
    """Points per card left: 0-9 face value, skip/reverse/draw2 20, wild and wild-draw4 50. Seat 1
    is left with blue 1, 2, 3 (6), a blue reverse (20), a wild and a wild-draw4 (100), a green 7
    (7) and its draws (50): 183."""
    t = red_run()
    ended = the(go_out(t, "red-7"), "round_ended")["data"]
    assert points(ended["hands"][1]) == 6 + 20 + 100 + 7 + 50 == 183


def test_penalty_scoring_each_player_scores_their_own_hand():
    """Rule book: "`scoring: "penalty"`: each player scores the points left in their own hand".
    Nobody reaches 500: the game goes on."""
    t = red_run(scoring="penalty")
    ended = the(go_out(t, "red-7"), "round_ended")["data"]
    assert ended["points"] == [0, 183, 145]
    assert t.state.scores == (0, 183, 145)
    assert t.state.status == "active"
    assert t.state.round_number == 2


def test_penalty_scoring_the_game_ends_at_the_target_and_the_lowest_total_wins():
    """Rule book: "... the first to reach `target_score` ends the game and the lowest total
    wins." Given running totals of 160, 0 and 0 and a target of 180: seat 1 reaches 183, and
    seat 2 (145) wins though seat 0 went out."""
    t = red_run(scoring="penalty", target_score=180)
    t.set_table(scores=(160, 0, 0))
    events = go_out(t, "red-7")
    assert t.state.scores == (160, 183, 145)
    ended = the(events, "game_ended")["data"]
    assert ended == {"winner_seat": 2, "reason": "target"}
    assert t.state.status == "finished"
    assert t.state.winner == 2
    assert "round_started" not in types(events)


def test_winner_scoring_the_game_ends_at_the_target():
    """Rule book: "The first to reach `target_score` (default 500) wins the game." With a target
    of 100 seat 0's 328 points end the game at once: no new round."""
    t = red_run(target_score=100)
    events = go_out(t, "red-7")
    assert types(events)[-2:] == ["round_ended", "game_ended"]
    assert the(events, "game_ended")["data"] == {"winner_seat": 0, "reason": "target"}
    assert t.state.status == "finished"
    assert t.state.winner == 0
    assert view(t.state, None)["winner_seat"] == 0
    error = t.refused(1, "draw")
    assert error.code == "game_not_active"


def test_a_new_round_is_dealt_automatically_with_the_dealer_one_seat_on():
    """Rule book: "A new round is dealt automatically when one ends and the game is not over."
    "Each later round the dealer moves one seat clockwise": round 2 is dealt by seat 0, so seat
    1 is dealt first and plays first. (With seed 1 the new starter is a green 9, a number.)"""
    t = red_run(seed=1)
    events = go_out(t, "red-7")
    started = the(events, "round_started")["data"]
    assert started["number"] == 2
    assert started["dealer"] == 0
    assert started["seats"] == [1, 2, 0]
    assert started["given"] is False
    deck = started["deck"]
    assert Counter(deck) == Counter(DECK)  # a fresh shuffle of all 108 cards
    for index, seat in enumerate([1, 2, 0]):
        assert t.hand(seat) == deck[index:21:3]
    assert the(events, "starter_turned")["data"]["card"] == deck[21] == "green-9"
    assert t.state.round_number == 2
    assert t.state.dealer == 0
    assert t.state.current == 1
    assert t.state.scores == (328, 0, 0)  # the scores carry over
    assert t.state.uno == set()
    assert t.refused(0, "draw").code == "not_your_turn"


def test_the_red_run_keeps_every_card():
    """The scenario itself: seat 0's seven plays and the twelve draws, nothing else."""
    t = red_run()
    for card in RED_RUN[:6]:
        seat_0_plays(t, card, **({"uno": True} if card == "red-6" else {}))
    assert t.hand(0) == ["red-7"]
    assert t.hand(1) == [*IDLE_1, *SEAT_1_DREW]
    assert t.hand(2) == [*IDLE_2, *SEAT_2_DREW]


def test_drawing_nothing_from_exhausted_piles_is_still_the_players_move():
    """The catch window stays open "until the next player begins their turn (their first action
    after the play)". Given an empty draw pile and only the red 3 on the discard pile: seat 0
    plays its red draw2 leaving one card and says nothing; seat 1 owes two and gets the red 3 (a
    penalty, not a move of its own); seat 2 begins its turn by drawing, and draws nothing. Now it
    is too late to catch seat 0."""
    t = Scenario([SEAT_0, IDLE_1, IDLE_2], "red-3")
    hoard = (*IDLE_2, *t.state.draw_pile, *SEAT_0[2:])
    t.set_table(draw_pile=(), hands=(("red-draw2", "red-8"), tuple(IDLE_1), hoard))

    t.act(0, "play", card="red-draw2")
    assert t.state.catchable == {0}
    assert t.hand(1) == [*IDLE_1, "red-3"]
    t.act(2, "draw")
    assert t.hand(2) == list(hoard)
    assert t.state.current == 0
    assert t.refused(1, "catch", target=0).code == "nothing_to_catch"


def test_the_default_target_is_500_and_reaching_it_ends_the_game():
    """Rule book: "The first to reach `target_score` (default 500) wins the game." Seat 0's 328
    points on 171 make 499: the game goes on; on 172 they make 500 exactly: it is over."""
    short = red_run()
    assert short.state.options.target_score == 500
    short.set_table(scores=(171, 0, 0))
    go_out(short, "red-7")
    assert short.state.scores == (499, 0, 0)
    assert (short.state.status, short.state.round_number) == ("active", 2)

    reached = red_run()
    reached.set_table(scores=(172, 0, 0))
    events = go_out(reached, "red-7")
    assert reached.state.scores == (500, 0, 0)
    assert the(events, "game_ended")["data"] == {"winner_seat": 0, "reason": "target"}
    assert reached.state.status == "finished"
