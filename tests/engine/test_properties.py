"""Property tests of the rules engine: thousands of random games with random house rules.

A game is drawn by hypothesis (seats, seed, house rules, a small target score, and a seed for the
random player), then played by a random player that only ever sends legal actions: mostly the
seat to act, sometimes another seat that may say UNO, catch or jump in, sometimes the server's
timeout, rarely a resignation or a bot taking a seat over. Each test checks one property of the
rule book or the API contract along the way.

``HYPOTHESIS_PROFILE=long`` plays ten times as many games.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, fields, replace
from itertools import chain
from typing import Any, cast

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    CARD_CODES,
    COLORS,
    DECK,
    HOUSE_RULES,
    GameState,
    IllegalMove,
    act,
    apply,
    event_view,
    legal_actions,
    make_options,
    replay,
    resign,
    start_game,
    take_over,
    time_out,
    view,
)
from games.engine.cards import NUMBER_CARDS, RANK_OF, hand_points
from games.engine.events import EVENT_TYPES, Event
from games.engine.limits import TEAMS
from games.engine.options import RULES, Options
from games.engine.rules import discarded_with, quick_move, shuffle
from games.engine.snapshot import state_from_data, state_to_data
from tests.engine.test_event_shapes import shape_problem

Action = dict[str, Any]

# Half the games drawn below end within 200 moves, but random play has a long tail: with 7 to 10
# seats and ``elimination`` the median is about 2,000 moves and 1 game in 300 passes 20,000 (hands
# of 20-30 cards, the piles nearly empty, penalties refilling the hands). The bound is 5 times the
# longest game seen in 600 such games.
MAX_ACTIONS = 100_000
SCALE = 10 if os.environ.get("HYPOTHESIS_PROFILE") == "long" else 1


def _settings(examples: int) -> settings:
    return settings(
        max_examples=examples * SCALE,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
        # CI plays the same games every run: a failure there is reproducible, never a fluke.
        derandomize=bool(os.environ.get("CI")),
    )


# Every on/off house rule of the options (a new one is drawn with the others).
BOOLEAN_RULES = tuple(rule.name for rule in RULES if rule.hint is bool)


@dataclass(frozen=True)
class Setup:
    players: int
    rules: dict[str, Any]
    target_score: int
    max_timeouts: int
    seed: int
    play_seed: int
    p_timeout: float  # the server times the actor out instead of a move
    p_other: float  # another seat than the actor moves (uno, catch, jump in)
    p_eager: float  # the actor plays a card when it can rather than picking any action
    given_deck: bool  # round 1 is dealt from a deck order given at creation (staff only)
    teams: int = 0  # partners: 2 or 3 teams (0: none)


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    big = draw(st.integers(0, 9)) == 0
    players = draw(st.integers(2, 10) if big else st.integers(2, 6))
    rules: dict[str, Any] = {name: True for name in BOOLEAN_RULES if draw(st.booleans())}
    if rules.get("reverse_bounce") and not rules.get("stacking"):
        del rules["reverse_bounce"]
    # The combinations the rule book refuses: keep one side of each.
    for keep, drop in (("seven_zero", "zero_swap"), ("no_action_finish", "no_wild_finish")):
        if rules.get(keep) and rules.get(drop):
            del rules[draw(st.sampled_from([keep, drop]))]
    if all(rules.get(n) for n in ("zero_swap", "zero_discards_color", "one_rotates")):
        del rules["one_rotates"]
    fits = [t for t in range(TEAMS.low, TEAMS.high + 1) if players % t == 0 and players >= 2 * t]
    teams = draw(st.sampled_from([0, 0, *fits])) if fits else 0
    if teams and rules.get("elimination"):
        teams = 0
    rules["scoring"] = draw(st.sampled_from(["winner", "penalty"]))
    if draw(st.booleans()):
        rules["uno_penalty"] = draw(st.integers(0, 4))
    if draw(st.booleans()):
        rules["bluff_penalty"] = draw(st.sampled_from([4, 6, 2]))
    return Setup(
        players=players,
        rules=rules,
        target_score=draw(st.integers(30, 150)),
        max_timeouts=draw(st.sampled_from([3, 3, 3, 2, 1])),
        seed=draw(st.integers(0, 2**32 - 1)),
        play_seed=draw(st.integers(0, 2**32 - 1)),
        p_timeout=draw(st.sampled_from([0.0, 0.0, 0.02, 0.06])),
        p_other=draw(st.sampled_from([0.0, 0.1, 0.3])),
        p_eager=draw(st.sampled_from([0.7, 0.9, 1.0])),
        given_deck=draw(st.integers(0, 4)) == 0,
        teams=teams,
    )


def test_the_games_drawn_cover_every_house_rule() -> None:
    # The on/off rules are drawn from the options; the others each by its own strategy.
    assert set(HOUSE_RULES) - set(BOOLEAN_RULES) == {"scoring", "uno_penalty", "bluff_penalty"}


def _extras(state: GameState, seat: int, action: Action, rng: random.Random) -> Action:
    """Sometimes turn a listed play into one ``legal_actions`` does not list: a set of one
    number (``multi_play``), a run (``color_runs``), a gift on a 2 (``two_gives``)."""
    action = _multi_play(state, seat, action, rng)
    action = _run(state, seat, action, rng)
    return _gift(state, seat, action, rng)


def _run(state: GameState, seat: int, action: Action, rng: random.Random) -> Action:
    card = action.get("card")
    if (
        not state.options.color_runs
        or state.pending is not None
        or seat != state.current
        or card not in NUMBER_CARDS
        or rng.random() < 0.5
    ):
        return action
    hand = list(state.hands[seat])
    hand.remove(card)
    step = rng.choice([1, -1])
    color, number = card.split("-")
    cards = [card]
    n = int(number) + step
    while 0 <= n <= 9 and f"{color}-{n}" in hand and rng.random() < 0.8:
        cards.append(f"{color}-{n}")
        hand.remove(cards[-1])
        n += step
    if len(cards) < 2:
        return action
    run: Action = {"action": "play", "cards": cards}
    if state.options.seven_zero and cards[-1].endswith("-7"):
        targets = [s for s in range(state.players) if s != seat and state.statuses[s] == "playing"]
        run["target"] = rng.choice(targets)
    left = len(hand) - len(discarded_with(state.options, hand, cards[-1]))
    if left == 1 and rng.random() < 0.7:
        run["uno"] = True
    return run


def _gift(state: GameState, seat: int, action: Action, rng: random.Random) -> Action:
    cards = action.get("cards") or [action.get("card")]
    if not state.options.two_gives or not str(cards[-1]).endswith("-2") or rng.random() < 0.3:
        return action
    hand = list(state.hands[seat])
    for card in cards:
        hand.remove(card)
    if len(hand) < 2:
        return action
    give = rng.sample(hand, rng.randint(1, min(2, len(hand) - 1)))
    targets = [s for s in range(state.players) if s != seat and state.statuses[s] == "playing"]
    gift: Action = {k: v for k, v in action.items() if k not in ("uno", "target")}
    gift.update(give=give, target=rng.choice(targets))
    if len(hand) - len(give) == 1 and rng.random() < 0.7:
        gift["uno"] = True
    return gift


# --- the random player ---------------------------------------------------------------------


@dataclass
class Step:
    before: GameState
    move: tuple[Any, ...]  # ("act", seat, action) | ("timeout",) | ("resign" | "take_over", seat)
    events: list[Event]
    after: GameState
    log_length: int  # the length of the whole log after this step


def _multi_play(state: GameState, seat: int, action: Action, rng: random.Random) -> Action:
    """With ``multi_play``, sometimes extend a single number-card play by same-number cards."""
    card = action.get("card")
    if (
        not state.options.multi_play
        or state.pending is not None
        or seat != state.current
        or card not in NUMBER_CARDS
        or rng.random() < 0.5
    ):
        return action
    rest = list(state.hands[seat])
    rest.remove(card)
    same = [c for c in rest if RANK_OF[c] == RANK_OF[card]]
    if not same:
        return action
    rng.shuffle(same)
    cards = [card, *same[: rng.randint(1, len(same))]]
    multi: Action = {"action": "play", "cards": cards}
    if "target" in action:
        multi["target"] = action["target"]
    for played in cards[1:]:
        rest.remove(played)
    left = len(rest) - len(discarded_with(state.options, rest, cards[-1]))
    if left == 1 and rng.random() < 0.7:
        multi["uno"] = True
    return multi


def choose(state: GameState, setup: Setup, rng: random.Random) -> tuple[Any, ...]:
    """The random player's next move: only ever a legal one."""
    roll = rng.random()
    if roll < setup.p_timeout:
        return ("timeout",)
    if roll < setup.p_timeout + 0.0006:
        playing = [s for s in range(state.players) if state.statuses[s] == "playing"]
        # A resignation, or with bot_takeover a bot taking the seat (the rules go on the same).
        return ("resign" if roll < setup.p_timeout + 0.0003 else "take_over", rng.choice(playing))
    seat = state.actor
    actions = legal_actions(state, seat)
    assert actions, f"the actor {seat} has no legal action"
    if rng.random() < setup.p_other:
        others = [(s, legal_actions(state, s)) for s in range(state.players) if s != seat]
        others = [(s, listed) for s, listed in others if listed]
        if others:
            seat, actions = rng.choice(others)
    plays = [a for a in actions if a["action"] == "play"]
    if plays and seat == state.actor and rng.random() < setup.p_eager:
        actions = plays
    action = rng.choice(actions)
    return ("act", seat, _extras(state, seat, action, rng))


def new_game(setup: Setup) -> tuple[list[Event], GameState]:
    options = make_options(
        setup.rules,
        target_score=setup.target_score,
        max_timeouts=setup.max_timeouts,
        teams=setup.teams,
    )
    deck = random.Random(setup.seed).sample(DECK, len(DECK)) if setup.given_deck else None
    log = start_game(setup.players, options, setup.seed, deck=deck)
    return log, replay(log)


def perform(state: GameState, move: tuple[Any, ...]) -> tuple[list[Event], GameState]:
    if move[0] == "timeout":
        return time_out(state)
    if move[0] == "resign":
        return resign(state, move[1])
    if move[0] == "take_over":
        return take_over(state, move[1], "resign")
    return act(state, move[1], move[2])


def random_game(setup: Setup) -> Iterator[Step]:
    """Play a whole game, step by step; fail if it does not end within ``MAX_ACTIONS``."""
    rng = random.Random(setup.play_seed)
    log, state = new_game(setup)
    yield Step(state, ("start",), list(log), state, len(log))
    for _ in range(MAX_ACTIONS):
        if state.status != "active":
            return
        move = choose(state, setup, rng)
        try:
            events, after = perform(state, move)
        except IllegalMove as error:
            raise AssertionError(f"the legal move {move} was refused: {error!r}") from error
        log += events
        yield Step(state, move, events, after, len(log))
        state = after
    raise AssertionError(f"the game did not end within {MAX_ACTIONS} actions")


def play_out(setup: Setup) -> tuple[list[Event], list[Step]]:
    steps = list(random_game(setup))
    log = [e for step in steps for e in step.events]
    return log, steps


# --- the properties --------------------------------------------------------------------------

SORTED_DECK = sorted(DECK)


def cards_in_play(state: GameState) -> list[str]:
    """Every card of the hands, the draw pile and the discard pile, sorted."""
    return sorted(chain(state.draw_pile, state.discard_pile, *state.hands))


@_settings(700)
@given(setups())
def test_every_card_is_accounted_for_and_every_game_finishes(setup: Setup) -> None:
    state = None
    for step in random_game(setup):
        state = step.after
        if cards_in_play(state) != SORTED_DECK:
            found = Counter(cards_in_play(state))
            found.subtract(DECK)
            raise AssertionError(f"after {step.move}: {+found} extra, {-found} missing")
        assert state.discard_pile, "no top card"
        for status, hand in zip(state.statuses, state.hands, strict=True):
            assert status == "playing" or not hand, "a seat that left the round holds cards"
        for item in step.events:
            if item["type"] == "round_ended":
                check_round_points(state, item["data"])
            elif item["type"] == "game_ended" and item["data"]["reason"] == "target":
                if state.options.teams:
                    check_winner_team(state, item["data"]["winner_team"])
                else:
                    check_game_winner(state, item["data"]["winner_seat"])
    assert state is not None and state.status == "finished"
    assert state.winner is not None and state.statuses[state.winner] != "forfeited"


def check_round_points(state: GameState, data: Mapping[str, Any]) -> None:
    """The scoring section of the rule book, from the hands the round ended with."""
    left = [hand_points(hand) for hand in data["hands"]]
    teams = state.options.teams
    if teams:
        held = [sum(left[s] for s in range(state.players) if s % teams == t) for t in range(teams)]
        won = data["winner_seat"] % teams
        for s in range(state.players):
            if state.options.scoring == "penalty":
                assert data["points"][s] == held[s % teams]
            else:
                assert data["points"][s] == (sum(held) - held[won] if s % teams == won else 0)
    elif state.options.scoring == "penalty":
        assert data["points"] == left
    else:
        expected = [0] * state.players
        expected[data["winner_seat"]] = sum(left)
        assert data["points"] == expected
    assert data["hands"][data["winner_seat"]] == [], "the round's winner still holds cards"


def check_game_winner(state: GameState, winner: int) -> None:
    scores = state.scores
    assert max(scores) >= state.options.target_score
    seated = [s for s in range(state.players) if state.statuses[s] != "forfeited"]
    best = min if state.options.scoring == "penalty" else max
    assert scores[winner] == best(scores[s] for s in seated)


def check_winner_team(state: GameState, team: int) -> None:
    """With teams every seat scores its team's total; the best total wins."""
    teams = state.options.teams
    totals = [state.scores[t] for t in range(teams)]
    assert all(state.scores[s] == totals[s % teams] for s in range(state.players))
    assert max(totals) >= state.options.target_score
    best = min if state.options.scoring == "penalty" else max
    assert totals[team] == best(totals)
    assert view(state, None)["winner_team"] == team


@_settings(300)
@given(setups())
def test_replay_of_the_log_is_the_state_reached_step_by_step(setup: Setup) -> None:
    log, steps = play_out(setup)
    assert replay(log) == steps[-1].after
    rng = random.Random(setup.play_seed ^ 0x5EED)
    for step in rng.sample(steps, min(3, len(steps))):
        assert replay(log[: step.log_length]) == step.after


@_settings(300)
@given(setups())
def test_events_are_json_and_replay_from_json(setup: Setup) -> None:
    log, steps = play_out(setup)
    assert {e["type"] for e in log} <= set(EVENT_TYPES)
    problems = {problem for problem in map(shape_problem, log) if problem is not None}
    assert not problems, f"events not of their shape: {problems}"
    text = json.dumps(log)
    again = json.loads(text)
    assert again == log
    assert replay(again) == steps[-1].after
    # The snapshot the service keeps beside the log is JSON too, and loads as the same state.
    rng = random.Random(setup.play_seed ^ 0x15)
    for step in [*rng.sample(steps, min(10, len(steps))), steps[-1]]:
        data = json.loads(json.dumps(state_to_data(step.after)))
        assert state_from_data(data) == step.after


def action_universe(players: int) -> list[Action]:
    """Every single action shape a seat could send: most of them illegal at any moment.

    Multi-card plays are left out: ``legal_actions`` lists single-card plays only.
    """
    universe: list[Action] = []
    for card in sorted(CARD_CODES):
        plays: list[Action] = [{"action": "play", "card": card}]
        plays += [{"action": "play", "card": card, "color": color} for color in COLORS]
        plays += [{"action": "play", "card": card, "target": t} for t in range(players)]
        universe += plays + [{**play, "uno": True} for play in plays]
    for name in ("draw", "pass", "challenge", "accept", "uno"):
        universe.append({"action": name})
    universe += [{"action": "color", "color": color} for color in COLORS]
    universe += [{"action": "catch", "target": t} for t in range(players)]
    return universe


def near_miss(state: GameState, seat: int, rng: random.Random) -> Action:
    """A play of a card ``seat`` holds (or of the top card), with or without the extras."""
    cards = [*state.hands[seat], *state.discard_pile[-1:]]
    action: Action = {"action": "play", "card": rng.choice(cards)}
    extra = rng.randrange(3)
    if extra == 1:
        action["color"] = rng.choice(COLORS)
    elif extra == 2:
        action["target"] = rng.randrange(state.players)
    if rng.random() < 0.5:
        action["uno"] = True
    return action


def normalised(action: Action) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted((k, v) for k, v in action.items() if not (k == "uno" and v is False)))


def check_agreement(
    state: GameState, seat: int, universe: list[Action], rng: random.Random
) -> None:
    listed = legal_actions(state, seat)
    keys = [normalised(a) for a in listed]
    assert len(set(keys)) == len(keys), f"seat {seat} has duplicate legal actions: {listed}"
    for action in listed:
        try:
            act(state, seat, action)
        except IllegalMove as error:
            raise AssertionError(f"listed {action} for seat {seat} refused: {error!r}") from error
    allowed = set(keys)
    # Half at random, half near misses (plays of a card the seat holds or of the top card),
    # where a disagreement would hide.
    sample = rng.sample(universe, 20) + [near_miss(state, seat, rng) for _ in range(20)]
    for action in sample:
        try:
            act(state, seat, action)
        except IllegalMove:
            accepted = False
        else:
            accepted = True
        assert accepted == (normalised(action) in allowed), (
            f"seat {seat}: {action} accepted={accepted} but listed={normalised(action) in allowed}"
        )


@_settings(120)
@given(setups())
def test_legal_actions_agree_with_decide(setup: Setup) -> None:
    rng = random.Random(setup.play_seed ^ 0xACE)
    universe = action_universe(setup.players)
    for step in random_game(setup):
        if rng.random() < 0.25:
            state = step.after
            check_agreement(state, state.actor, universe, rng)
            check_agreement(state, rng.randrange(state.players), universe, rng)
    # A finished game accepts nothing.
    for action in rng.sample(universe, 20):
        try:
            act(step.after, rng.randrange(setup.players), action)
        except IllegalMove as error:
            assert error.code == "game_not_active"
        else:
            raise AssertionError(f"{action} was accepted in a finished game")


def shuffled_hidden(state: GameState, seat: int | None, rng: random.Random) -> GameState:
    """``state`` with the cards hidden from ``seat`` dealt anew: same hand sizes, same pile size."""
    hidden = [s for s in range(state.players) if s != seat]
    pool = list(state.draw_pile)
    for s in hidden:
        pool += state.hands[s]
    rng.shuffle(pool)
    hands = list(state.hands)
    at = 0
    for s in hidden:
        size = len(state.hands[s])
        hands[s] = tuple(pool[at : at + size])
        at += size
    return state.evolve(hands=tuple(hands), draw_pile=tuple(pool[at:]))


@_settings(200)
@given(setups())
def test_no_view_holds_a_card_hidden_from_it(setup: Setup) -> None:
    rng = random.Random(setup.play_seed ^ 0x51DE)
    seats: list[int | None] = [None, *range(setup.players)]
    for step in random_game(setup):
        state = step.after
        if state.status != "active" or rng.random() < 0.6:
            continue
        for seat in seats:
            other = shuffled_hidden(state, seat, rng)
            if other.hands == state.hands and other.draw_pile == state.draw_pile:
                continue
            assert view(other, seat) == view(state, seat), f"seat {seat} sees hidden cards"
    final = step.after
    assert final.status == "finished"
    for seat in seats:
        seen = view(final, seat)
        assert [entry["hand"] for entry in seen["seats"]] == [list(h) for h in final.hands]
        assert seen["revealed"] == {"draw_pile": list(final.draw_pile), "seed": final.seed}


PUBLIC_EVENTS = frozenset(EVENT_TYPES) - {
    "game_started",
    "round_started",
    "starter_returned",
    "cards_drawn",
    "pile_reshuffled",
    "forfeited",
    "challenged",
    "turn_changed",
    "cards_given",
}


def check_event_view(item: Event, seen: Event, viewer: int | None, state: GameState) -> None:
    """``seen`` is ``item`` as ``viewer`` sees it; ``state`` is the state right after ``item``."""
    kind, seat, data = item["type"], item["seat"], item["data"]
    assert seen["type"] == kind and seen["seat"] == seat
    shown = seen["data"]
    if kind in PUBLIC_EVENTS:
        assert seen == item
    elif kind == "game_started":
        assert shown == {k: v for k, v in data.items() if k != "seed"}
    elif kind == "round_started":
        assert "deck" not in shown
        if viewer is not None and viewer in data["seats"]:
            assert shown["hand"] == list(state.hands[viewer])
        else:
            assert "hand" not in shown
    elif kind == "starter_returned":
        assert shown == {"card": data["card"]}
    elif kind == "cards_drawn":
        assert shown["count"] == len(data["cards"])
        if viewer == seat:
            assert shown["cards"] == data["cards"]
        else:
            assert "cards" not in shown
    elif kind in ("pile_reshuffled", "forfeited"):
        assert not isinstance(shown.get("draw_pile"), list), "a new draw pile is shown"
        count = shown.get("draw_pile_count", shown.get("draw_pile"))
        assert count == len(data["draw_pile"])
        assert {k: v for k, v in shown.items() if k not in ("draw_pile", "draw_pile_count")} == {
            k: v for k, v in data.items() if k != "draw_pile"
        }
    elif kind == "challenged":
        assert ("hand" in shown) == (viewer in (seat, data["target"]))
    elif kind == "cards_given":
        assert shown["count"] == len(data["cards"])
        assert ("cards" in shown) == (viewer in (seat, data["target"]))
    elif kind == "turn_changed":
        pending = shown["pending"]
        if pending is not None and viewer != pending["seat"]:
            assert "card" not in pending
    if kind not in PUBLIC_EVENTS:
        text = json.dumps(seen)
        assert '"seed"' not in text and '"deck"' not in text


def check_revealed(item: Event, seen: Event) -> None:
    """A finished game's event log shows everything (counts may come beside the cards)."""
    assert seen["type"] == item["type"] and seen["seat"] == item["seat"]
    assert {k: seen["data"].get(k) for k in item["data"]} == item["data"]


@_settings(250)
@given(setups())
def test_event_views_hide_what_a_seat_may_not_see(setup: Setup) -> None:
    log, _ = play_out(setup)
    before = json.dumps(log)
    rng = random.Random(setup.play_seed ^ 0xE7E)
    everyone: list[int | None] = [None, *range(setup.players)]
    state: GameState | None = None
    for item in log:
        state = apply(state, item)
        # Every viewer for the rare events; for the frequent ones the table, the seat the event
        # happened to and one seat at random.
        if item["type"] in ("round_started", "challenged", "forfeited", "starter_returned"):
            viewers = everyone
        else:
            viewers = [None, item["seat"], rng.randrange(setup.players)]
        for viewer in viewers:
            check_event_view(item, event_view(item, viewer, False), viewer, state)
        check_revealed(item, event_view(item, rng.choice(everyone), True))
        # The replay API shows the view right after any event, even one in the middle of a move.
        viewer = rng.choice(everyone)
        seen = view(state, viewer)
        if viewer is not None:
            assert seen["you"]["hand"] == list(state.hands[viewer])
    assert json.dumps(log) == before, "event_view changed the log"


FIELD_NAMES = frozenset(f.name for f in fields(GameState))


@_settings(150)
@given(setups())
def test_moves_and_replays_leave_the_state_they_start_from_unchanged(setup: Setup) -> None:
    """A move and a replay write their events into a copy (a draft), never into a state someone
    holds: the state a move starts from is the same after it, and folding one event at a time
    (``apply``) or the rest of a log from a state held midway reaches the state ``replay`` does."""
    rng = random.Random(setup.play_seed)
    log, state = new_game(setup)
    held = [(state, len(log))]
    while state.status == "active":
        assert len(held) <= MAX_ACTIONS, "the game did not end"
        move = choose(state, setup, rng)
        kept = dict(vars(state))
        events, after = perform(state, move)
        assert vars(state) == kept, f"{move} changed the state it started from"
        assert set(vars(after)) == FIELD_NAMES, "a state holds a field GameState does not define"
        log += events
        held.append((after, len(log)))
        state = after
    folded: GameState | None = None
    for item in log:
        folded = apply(folded, item)
    assert folded == replay(log) == state
    middle, at = held[len(held) // 2]
    kept = dict(vars(middle))
    assert replay(log[at:], middle) == state
    assert vars(middle) == kept, "replay changed the state it started from"


def _breakers(flag: str) -> tuple[str, ...]:
    """The on/off rules that, each alone, turn off the derived ``Options`` flag ``flag``: the
    tests below play without them, and hold the fast path the flag allows to the general one
    (a rule the flag should have counted and does not makes them disagree)."""
    return tuple(
        name
        for name in BOOLEAN_RULES
        if not getattr(Options(**cast("dict[str, Any]", {name: True})), flag)
    )


# The rules under which legal_actions lists no play inline (Options.plain_plays).
PLAIN_BREAKERS = _breakers("plain_plays")


@_settings(100)
@given(setups())
def test_the_inline_listing_of_plain_plays_agrees_with_the_general_one(setup: Setup) -> None:
    """``legal_actions`` lists a playable card inline when no rule adds to its entries
    (``Options.plain_plays``): the same list as ``_play_entries`` gives, for every seat."""
    rules = {k: v for k, v in setup.rules.items() if k not in PLAIN_BREAKERS}
    plain = replace(setup, rules=rules)
    checked = 0
    for step in random_game(plain):
        state = step.after
        assert state.options.plain_plays
        general_options = replace(state.options)
        vars(general_options)["plain_plays"] = False  # the derived flag, forced: the general path
        general = state.evolve(options=general_options)
        for seat in range(state.players):
            assert legal_actions(state, seat) == legal_actions(general, seat)
            checked += 1
    assert checked


# The rules under which rules.quick_move never applies (Options.simple_moves).
NOT_SIMPLE = _breakers("simple_moves")


def _outcome(state: GameState, seat: int, action: Action) -> Any:
    try:
        return act(state, seat, action)
    except IllegalMove as error:
        return error.code


def odd_shapes(state: GameState, seat: int, rng: random.Random) -> list[Action]:
    """Plays the quick path must leave to the full rules however short they are: two keys without
    a ``card``, a ``card`` beside ``cards``, extras of the wrong type or value."""
    card = rng.choice([*state.hands[seat], *state.discard_pile[-1:]])
    return [
        {"action": "play", "color": rng.choice(COLORS)},
        {"action": "play", "uno": True},
        {"action": "play", "target": rng.randrange(state.players)},
        {"action": "play", "give": []},
        {"action": "play", "cards": [card]},
        {"action": "play", "card": card, "cards": [card]},
        {"action": "play", "card": card, "uno": 1},
        {"action": "play", "card": card, "uno": False},
        {"action": "play", "card": card, "color": "purple"},
        {"action": "play", "card": card, "color": None},
        {"action": "play", "card": [card]},
        {"action": "draw", "card": card},
        {"action": "accept", "uno": True},
    ]


def _any_outcome(state: GameState, seat: int, action: Action) -> Any:
    """``_outcome``, and the kind of any other exception (a state in the middle of a move)."""
    try:
        return _outcome(state, seat, action)
    except Exception as error:  # the kind is what is compared
        return type(error).__name__


def _quick_agrees(
    state: GameState, rng: random.Random, universe: list[Action], outcome: Callable[..., Any]
) -> int:
    """The quick path and the full rules decide alike for the seat to act and a random seat;
    how many listed actions took the quick path."""
    full_options = replace(state.options)
    vars(full_options)["simple_moves"] = False  # the derived flag, forced: the full rules
    full = state.evolve(options=full_options)
    quick = 0
    for seat in {state.actor, rng.randrange(state.players)}:
        listed = legal_actions(state, seat)
        tried = listed + rng.sample(universe, 5) + [near_miss(state, seat, rng)]
        tried += odd_shapes(state, seat, rng)
        for action in tried:
            assert outcome(state, seat, action) == outcome(full, seat, action), action
        quick += sum(quick_move(state, seat, a) is not None for a in listed)
    return quick


@_settings(120)
@given(setups())
def test_the_quick_path_of_common_moves_decides_as_the_full_rules(setup: Setup) -> None:
    """``rules.quick_move`` (draws and simple plays in one step) gives the same events and the
    same state as the full rules, and leaves every other action, legal or not, to them: between
    moves, and in the middle of one (a replay may stop at any event)."""
    rules = {k: v for k, v in setup.rules.items() if k not in NOT_SIMPLE}
    simple = replace(setup, rules=rules)
    rng = random.Random(setup.play_seed ^ 0x0F457)
    universe = action_universe(setup.players)
    quick = 0
    for step in random_game(simple):
        state = step.after
        if state.status != "active":
            continue
        assert state.options.simple_moves
        quick += _quick_agrees(state, rng, universe, _outcome)
        if len(step.events) > 1 and step.before.status == "active":
            middle = replay(step.events[: rng.randrange(1, len(step.events))], step.before)
            if middle.status == "active" and middle.discard_pile:
                _quick_agrees(middle, rng, universe, _any_outcome)
    assert quick, "no move took the quick path"


@_settings(200)
@given(st.integers(0, 2**32 - 1), st.integers(0, 250))
def test_the_engine_shuffle_is_random_shuffle(seed: int, size: int) -> None:
    """``rules.shuffle`` (one loop) puts the cards in the order ``random.shuffle`` does."""
    cards = [DECK[i % len(DECK)] for i in range(size)]
    expected = list(cards)
    random.Random(seed).shuffle(expected)
    shuffle(random.Random(seed), cards)
    assert cards == expected
