"""``games.fairness`` on games played by the pure engine (no database): every honest export
verifies, and a changed shuffle, card or hash does not, even with the chain rewritten after it."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games import engine
from games.engine.options import PRESETS
from games.fairness import ZERO_HASH, chain, commitment, new_salt, verify_export

RULES = sorted(PRESETS["house"])
MAX_EVENTS = 3000


def played(seed: int, salt: str, players: int, rules: dict[str, bool], moves: int) -> Any:
    """A whole game: random legal actions of any seat, now and then a timeout or a resignation."""
    options = engine.make_options(rules, target_score=50, max_timeouts=2)
    log = engine.start_game(players, options, seed, salt=salt)
    state = engine.replay(log)
    rng = random.Random(moves)
    while state.status == "active" and len(log) < MAX_EVENTS:
        roll = rng.random()
        if roll < 0.03:
            events, state = engine.time_out(state)
        elif roll < 0.035:
            seat = rng.choice([s for s in range(players) if state.statuses[s] != "forfeited"])
            events, state = engine.resign(state, seat)
        else:
            seats = [s for s in range(players) if engine.legal_actions(state, s)]
            seat = rng.choice(seats)
            events, state = engine.act(state, seat, rng.choice(engine.legal_actions(state, seat)))
        log += events
    return log, state


def export(log: list[engine.Event], seed: int, salt: str, winner: int | None) -> dict[str, Any]:
    stored = json.loads(json.dumps(log))
    hashes = chain(ZERO_HASH, 1, stored)
    return {
        "id": "a-game",
        "settings": {},
        "seats": [],
        "events": [
            {"seq": seq, **item, "at": "2026-12-01T12:00:00+00:00", "hash": link}
            for seq, (item, link) in enumerate(zip(stored, hashes, strict=True), 1)
        ],
        "seed": seed,
        "salt": salt,
        "deck_commitment": commitment(seed, salt),
        "winner_seat": winner,
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
    seed: int, salt: str, players: int, rules: dict[str, bool], moves: int
) -> dict[str, Any] | None:
    try:
        log, state = played(seed, salt, players, rules, moves)
    except engine.IllegalMove:  # rules that do not combine (teams, and so on): not a game
        return None
    if state.status != "finished":
        return None
    return export(log, seed, salt, state.winner)


@settings(max_examples=40, deadline=None)
@given(game=games)
def test_every_honest_export_verifies(game: Game) -> None:
    document = finished(*game)
    if document is not None:
        report = verify_export(document)
        assert report.ok, report.text()


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
    document = export(log, seed, salt, state.winner)
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
    document = export(log, 5, "", state.winner) | {"salt": None, "deck_commitment": None}
    report = verify_export(document)
    assert len(report.problems) == 1 and "no deck commitment" in report.problems[0]
