"""The official rules, "Saying UNO".

"A player who plays their second-to-last card must say UNO (the `uno` flag on that play, or a
separate `uno` action while they hold one card and have not been caught). Any other player may
catch a player who holds one card and has not said UNO, until the next player begins their turn
(their first action after the play). A caught player draws 2 (the `uno_penalty` option, default
2)."

Seat 0 plays its red run down to two cards (red 6 and red 7) while seats 1 and 2 draw.
"""

from __future__ import annotations

from games.engine import view
from tests.support.scenario import (
    UNPLAYABLE,
    drawn,
    red_run,
    red_run_to,
    the,
    types,
)

PENALTY = ["red-0", "yellow-0"]


def test_say_uno_with_the_play():
    """The `uno` flag on the play of the second-to-last card: nobody can catch seat 0."""
    t = red_run(rounds=5, after=PENALTY)
    red_run_to(t, 2)
    events = t.act(0, "play", card="red-6", uno=True)
    assert the(events, "card_played")["data"]["uno"] is True
    assert t.hand(0) == ["red-7"]
    assert t.state.uno == {0}
    assert view(t.state, 2)["seats"][0]["uno"] is True

    for catcher in (1, 2):
        error = t.refused(catcher, "catch", target=0)
        assert error.code == "nothing_to_catch"
    assert t.hand(0) == ["red-7"]


def test_say_uno_with_a_separate_action():
    """... "or a separate `uno` action while they hold one card and have not been caught"."""
    t = red_run(rounds=5, after=PENALTY)
    red_run_to(t, 2)
    assert t.refused(0, "uno").code == "cannot_say_uno"  # two cards: not yet
    t.act(0, "play", card="red-6")
    assert t.state.catchable == {0}

    events = t.act(0, "uno")
    assert types(events) == ["uno_said"]
    assert t.state.uno == {0}
    assert t.state.current == 1  # saying UNO is no move of the turn
    assert t.refused(2, "catch", target=0).code == "nothing_to_catch"
    assert t.refused(0, "uno").code == "cannot_say_uno"  # once is enough


def test_catch_a_player_who_did_not_say_uno():
    """Rule book: "Any other player may catch a player who holds one card and has not said UNO
    ... A caught player draws 2". Seat 2, who is not even next, catches seat 0."""
    t = red_run(rounds=5, after=PENALTY)
    red_run_to(t, 2)
    t.act(0, "play", card="red-6")

    events = t.act(2, "catch", target=0)
    caught = the(events, "uno_caught")
    assert (caught["seat"], caught["data"]["target"]) == (2, 0)
    assert drawn(events, 0, reason="caught") == PENALTY
    assert t.hand(0) == ["red-7", *PENALTY]
    assert t.state.current == 1  # the turn is still seat 1's
    assert t.refused(1, "catch", target=0).code == "nothing_to_catch"  # caught once


def test_the_next_player_may_catch_before_their_first_action():
    """The window is open "until the next player begins their turn": seat 1 catches first, then
    plays its turn."""
    t = red_run(rounds=5, after=[*PENALTY, "blue-4"])
    red_run_to(t, 2)
    t.act(0, "play", card="red-6")
    t.act(1, "catch", target=0)
    assert t.hand(0) == ["red-7", *PENALTY]
    assert t.state.current == 1
    t.act(1, "draw")
    assert t.state.current == 2


def test_the_catch_window_closes_at_the_next_players_first_action():
    """Rule book: "... until the next player begins their turn (their first action after the
    play)." Seat 1 draws; after that seat 2 is too late."""
    t = red_run(rounds=5, after=["blue-4"])
    red_run_to(t, 2)
    t.act(0, "play", card="red-6")
    t.act(1, "draw")
    error = t.refused(2, "catch", target=0)
    assert error.code == "nothing_to_catch"
    assert t.hand(0) == ["red-7"]


def test_catching_nobody_or_oneself_is_refused():
    """Only a player holding one card who has not said UNO can be caught, and by another."""
    t = red_run(rounds=5, after=PENALTY)
    red_run_to(t, 2)
    assert t.refused(1, "catch", target=0).code == "nothing_to_catch"  # two cards
    t.act(0, "play", card="red-6")
    assert t.refused(0, "catch", target=0).code == "nothing_to_catch"
    error = t.refused(1, "catch", target=7)
    assert error.code == "invalid"


def test_uno_flag_only_on_the_second_to_last_card():
    """UNO is said with the play of the second-to-last card, not earlier."""
    t = red_run()
    red_run_to(t, 3)
    error = t.refused(0, "play", card="red-5", uno=True)
    assert error.code == "invalid"


def test_the_red_run_setup():
    """The scenario above, checked once: the others' draws never fit, seat 0 keeps the turn
    order 0, 1, 2."""
    t = red_run(rounds=5)
    red_run_to(t, 2)
    assert t.hand(1)[7:] == UNPLAYABLE[0:10:2]
    assert t.hand(2)[7:] == UNPLAYABLE[1:10:2]
    assert t.state.current == 0
