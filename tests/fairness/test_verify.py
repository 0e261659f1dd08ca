"""``games.fairness`` on games played by the pure engine (no database): every honest export
verifies, and a changed shuffle, card or hash does not, even with the chain rewritten after it."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games import engine
from games.engine.options import PRESETS, Bank, clock_setting
from games.fairness import ZERO_HASH, chain, commitment, new_salt, verify_export

RULES = sorted(PRESETS["house"])
MAX_EVENTS = 3000


def played(
    seed: int,
    salt: str,
    players: int,
    rules: dict[str, bool],
    moves: int,
    teams: int = 0,
    bank: Bank | None = None,
) -> Any:
    """A whole game: random legal actions of any seat, now and then a timeout or a resignation.
    On a bank clock each move spends a random part of the bank of the seat to act."""
    options = engine.make_options(rules, target_score=50, max_timeouts=2, teams=teams, bank=bank)
    log = engine.start_game(players, options, seed, salt=salt)
    state = engine.replay(log)
    rng = random.Random(moves)
    while state.status == "active" and len(log) < MAX_EVENTS:
        roll = rng.random()
        if roll < 0.03:
            events, state = engine.time_out(state)
        elif roll < 0.035:
            seat = rng.choice([s for s in range(players) if state.statuses[s] != "forfeited"])
            events, state = engine.resign(state, seat, left=spent(rng, state))
        else:
            seats = [s for s in range(players) if engine.legal_actions(state, s)]
            seat = rng.choice(seats)
            action = rng.choice(engine.legal_actions(state, seat))
            events, state = engine.act(state, seat, action, left=spent(rng, state))
        log += events
    return log, state


def spent(rng: random.Random, state: engine.GameState) -> int | None:
    """The seconds left in the bank of the seat to act, as the service reads them from its
    clock (None: no bank clock)."""
    return rng.randint(0, state.banks[state.actor]) if state.banks else None


def export(
    log: list[engine.Event], seed: int, salt: str, state: engine.GameState
) -> dict[str, Any]:
    """The export the service would give (``selectors.game_export``): its settings and seats as
    ``selectors.settings_of`` and the game view show them."""
    stored = json.loads(json.dumps(log))
    hashes = chain(ZERO_HASH, 1, stored)
    options, teams = state.options, state.options.teams
    settings = {
        "max_players": state.players,
        "target_score": options.target_score,
        "turn_timeout": 60,
        "max_timeouts": options.max_timeouts,
        "clock": clock_setting(options),
        "rules": options.rules(),
        **({"teams": teams} if teams else {}),
    }
    seats = [
        {
            "seat": seat,
            "player": None,
            "score": state.scores[seat],
            "status": state.statuses[seat],
            **({"team": seat % teams} if teams else {}),
        }
        for seat in range(state.players)
    ]
    return {
        "id": "a-game",
        "settings": settings,
        "seats": seats,
        "events": [
            {"seq": seq, **item, "at": "2026-12-01T12:00:00+00:00", "hash": link}
            for seq, (item, link) in enumerate(zip(stored, hashes, strict=True), 1)
        ],
        "seed": seed,
        "salt": salt,
        "deck_commitment": commitment(seed, salt),
        "winner_seat": state.winner,
    }


def rechained(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` with every hash recomputed: what a forger who rewrote the log would send."""
    events = document["events"]
    for item, link in zip(events, chain(ZERO_HASH, 1, events), strict=True):
        item["hash"] = link
    return document


Game = tuple[int, str, int, dict[str, bool], int]
games = st.builds(
    lambda seed, salt, players, rules, moves: (
        seed,
        salt,
        players,
        dict.fromkeys(rules, True),
        moves,
    ),
    st.integers(min_value=0, max_value=2**63 - 1),
    st.binary(min_size=32, max_size=32).map(bytes.hex),
    st.integers(min_value=2, max_value=5),
    st.sets(st.sampled_from(RULES), max_size=5),
    st.integers(min_value=0, max_value=2**32),
)


def finished(
    seed: int,
    salt: str,
    players: int,
    rules: dict[str, bool],
    moves: int,
    teams: int = 0,
    bank: Bank | None = None,
) -> dict[str, Any] | None:
    try:
        log, state = played(seed, salt, players, rules, moves, teams, bank)
    except engine.IllegalMove:  # rules that do not combine (teams, and so on): not a game
        return None
    if state.status != "finished":
        return None
    return export(log, seed, salt, state)


@settings(max_examples=40, deadline=None)
@given(game=games)
def test_every_honest_export_verifies(game: Game) -> None:
    document = finished(*game)
    if document is not None:
        report = verify_export(document)
        assert report.ok, report.text()


@settings(max_examples=30, deadline=None)
@given(game=games, teams=st.sampled_from([0, 2]))
def test_every_honest_export_on_a_bank_clock_verifies(game: Game, teams: int) -> None:
    """The seconds a seat had left are not logged: the verifier reads them back from the bank
    each move logs (it knew only a move made at once, and failed every slow one)."""
    seed, salt, players, rules, moves = game
    if teams:
        players, rules = 4, {name: on for name, on in rules.items() if name != "elimination"}
    document = finished(seed, salt, players, rules, moves, teams, Bank(300, 20, 600))
    if document is not None:
        report = verify_export(document)
        assert report.ok, report.text()


def _changed_claim(document: dict[str, Any], pick: random.Random) -> str:
    """Change one thing the export says beside its hashed log; return what, as the verifier
    names it."""
    seats, settings_ = document["seats"], document["settings"]
    seat = pick.randrange(len(seats))
    kind = pick.choice(["winner", "score", "status", "team", "seats", "rule", "target", "timeouts"])
    if kind == "winner":
        document["winner_seat"] = (document["winner_seat"] + 1) % len(seats)
        return "the winner, not"
    if kind == "score":
        seats[seat]["score"] += pick.randint(1, 100)
        return f"seat {seat}: the export shows score"
    if kind == "status":
        statuses = ["playing", "forfeited", "out"]
        statuses.remove(seats[seat]["status"])
        seats[seat]["status"] = pick.choice(statuses)
        return f"seat {seat}: the export shows status"
    if kind == "team":
        seats[seat]["team"] = seats[seat].get("team", 0) + 1
        return f"seat {seat}: the export shows team"
    if kind == "seats":
        del seats[seat]
        return "seats, but the game was dealt to"
    if kind == "rule":
        name = pick.choice([n for n, on in settings_["rules"].items() if isinstance(on, bool)])
        settings_["rules"][name] = not settings_["rules"][name]
        return f"settings.rules.{name} is"
    name = "target_score" if kind == "target" else "max_timeouts"
    settings_[name] += 1
    return f"settings.{name} is"


@settings(max_examples=40, deadline=None)
@given(game=games, pick=st.randoms(use_true_random=False))
def test_a_changed_claim_beside_the_log_fails(game: Game, pick: random.Random) -> None:
    """The settings, seats and winner are outside the hashed events: the replay binds them."""
    document = finished(*game)
    if document is None:
        return
    expected = _changed_claim(document, pick)
    report = verify_export(document)
    assert any(expected in problem for problem in report.problems), (expected, report.problems)


# The events whose data holds a random outcome, and where: a shuffle, a drawn card, a position.
RANDOM_FIELDS = {
    "round_started": "deck",
    "pile_reshuffled": "draw_pile",
    "forfeited": "draw_pile",
    "cards_drawn": "cards",
}


@settings(max_examples=40, deadline=None)
@given(game=games, pick=st.randoms(use_true_random=False))
def test_a_changed_outcome_fails_even_with_the_chain_rewritten(
    game: Game, pick: random.Random
) -> None:
    document = finished(*game)
    if document is None:
        return
    events = document["events"]
    candidates = [
        e
        for e in events
        if RANDOM_FIELDS.get(e["type"]) and len(set(e["data"][RANDOM_FIELDS[e["type"]]])) > 1
    ]
    candidates += [e for e in events if e["type"] == "starter_returned"]
    target = pick.choice(candidates)
    if target["type"] == "starter_returned":
        target["data"]["position"] += 1
    else:
        cards = target["data"][RANDOM_FIELDS[target["type"]]]
        other = pick.choice([k for k in range(len(cards)) if cards[k] != cards[0]])
        cards[0], cards[other] = cards[other], cards[0]

    unchained = verify_export(document)
    assert not unchained.ok
    assert f"event {target['seq']} ({target['type']}): its hash is" in unchained.problems[0]
    forged = verify_export(rechained(document))
    assert not forged.ok, f"a changed {target['type']} verified"
    assert forged.problems[0].startswith(f"event {target['seq']}"), forged.problems


@settings(max_examples=20, deadline=None)
@given(game=games, pick=st.randoms(use_true_random=False))
def test_any_changed_event_breaks_the_chain(game: Game, pick: random.Random) -> None:
    document = finished(*game)
    if document is None:
        return
    target = pick.choice(document["events"])
    change = pick.choice(["seat", "type", "data"])
    if change == "seat":
        target["seat"] = 9 if target["seat"] != 9 else 8
    elif change == "type":
        target["type"] = "passed" if target["type"] != "passed" else "uno_said"
    else:
        target["data"]["extra"] = True
    report = verify_export(document)
    assert report.problems[0].startswith(f"event {target['seq']} ({target['type']})")


def test_a_forged_seed_and_salt_with_their_commitment_do_not_give_the_deck() -> None:
    """A forger who changes the seed, the salt and the commitment, and the first event and every
    hash with them: the logged deal is not the one the new seed gives."""
    seed, salt = 11, new_salt()
    log, state = played(seed, salt, 3, {}, moves=4)
    document = export(log, seed, salt, state)
    forged_salt = new_salt()
    document |= {"salt": forged_salt, "deck_commitment": commitment(seed, forged_salt)}
    document["events"][0]["data"]["salt"] = forged_salt
    report = verify_export(rechained(document))
    assert (
        report.problems == [report.problems[0]]
        and "event 2: the deal is not the one the seed gives" in report.problems[0]
    )


def test_a_game_without_salt_is_not_a_fair_deck() -> None:
    """Games begun before fair decks: the chain and the replay hold, the commitment is missing."""
    log, state = played(5, "", 2, {}, moves=1)
    document = export(log, 5, "", state) | {"salt": None, "deck_commitment": None}
    report = verify_export(document)
    assert len(report.problems) == 1 and "no deck commitment" in report.problems[0]
