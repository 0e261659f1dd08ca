"""Fair decks and the tamper-evident log, through HTTP on PostgreSQL (issue 16, docs/fairness.md).

The deck commitment is shown from the game's creation on and matches the seed and salt revealed at
the end; every event of a finished game carries its link of the hash chain; the export verifies,
and a log, a seed or a salt changed behind the service's back does not.
"""

from __future__ import annotations

import io
import json
import random
import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pytest_django.fixtures import Settings

from games import engine
from games.engine.bots import choose
from games.fairness import verify_export
from games.models import Game
from tests.support.fairness import chained, committed, tamper
from tests.support.players import MakePlayer, Player
from tests.support.table import (
    Table,
    create_game,
    db_log,
    game_url,
    ok,
    play_to_end,
    refused,
    seat_players,
    start_table,
)
from tests.support.visibility import assert_no_secret

pytestmark = pytest.mark.django_db
HEX64 = re.compile(r"[0-9a-f]{64}")
EXPORT_KEYS = {
    "id",
    "settings",
    "seats",
    "events",
    "seed",
    "salt",
    "deck_commitment",
    "winner_seat",
}


def finished_table(players: list[Player], moves: int, **settings: Any) -> Table:
    """A game played by bots through HTTP to its end (one round: target score 1)."""
    table = start_table(players, target_score=1, **settings)
    final = play_to_end(table, random.Random(moves))
    assert final["status"] == "finished"
    return table


def export_of(table: Table, seat: int = 0) -> dict[str, Any]:
    body: dict[str, Any] = ok(table.client(seat).get(table.url("export")))
    return body


def test_the_deck_is_committed_before_the_deal_and_revealed_at_the_end(
    players: list[Player], outsider: Player, caplog: pytest.LogCaptureFixture, random_salts: None
) -> None:
    ada, bob = players[:2]
    created = create_game(ada, max_players=2, target_score=1)
    commitment = created["deck_commitment"]
    assert HEX64.fullmatch(commitment) and not {"seed", "salt"} & set(created)
    table = seat_players(ada, [bob], created)
    table.outsider = outsider
    state = engine.replay(db_log(table.id))

    # From the first event on, every reader sees the same commitment and nothing it commits to.
    for client in (ada.client, bob.client, outsider.client):
        view = ok(client.get(table.url()))
        assert view["deck_commitment"] == commitment
        assert_no_secret(view, state)
        page = ok(client.get(table.url("events")))
        assert page["events"][0]["type"] == "game_started"
        for item in page["events"]:
            assert_no_secret(item, state)
        replay = ok(client.get(table.url("replay"), {"at": 1}))
        assert replay["deck_commitment"] == commitment
        assert_no_secret(replay, state)

    for player in (ada, bob):  # the notifications of the start and of the turns
        inbox = ok(player.client.get("/api/v1/notifications/"))
        assert inbox["results"]
        assert_no_secret(inbox, state)
    assert state.salt not in caplog.text and HEX64.fullmatch(state.salt)

    final = play_to_end(table, random.Random(3))
    seed, salt = final["seed"], final["salt"]
    assert final["status"] == "finished" and final["deck_commitment"] == commitment
    assert committed(seed, salt) == commitment and HEX64.fullmatch(salt)
    assert final["revealed"]["seed"] == seed == Game.objects.get(pk=table.id).seed
    # Every shuffle follows from them: the engine deals the same cards from the seed and salt.
    log = db_log(table.id)
    options = engine.replay(log[:1]).options
    dealt = engine.start_game(2, options, seed, salt=salt)
    assert json.loads(json.dumps(dealt)) == log[: len(dealt)]
    # And every event of the finished log carries its link of the chain, for every reader.
    hashes = chained([{"seq": seq, **item} for seq, item in enumerate(log, 1)])
    for client in (ada.client, outsider.client):
        page = ok(client.get(table.url("events"), {"limit": 1000}))
        assert [item["hash"] for item in page["events"]] == hashes


def test_a_seed_given_at_creation_predicts_no_deck(
    players: list[Player], random_salts: None
) -> None:
    """Two games created with the same seed are dealt differently, and neither as the seed
    alone would deal: the secret salt is mixed in."""
    ada, bob, cy, dee = players
    first = start_table([ada, bob], seed=7)
    second = start_table([cy, dee], seed=7)
    decks = [db_log(table.id)[1]["data"]["deck"] for table in (first, second)]
    unsalted = engine.start_game(2, engine.replay(db_log(first.id)[:1]).options, 7)[1]
    assert decks[0] != decks[1]
    assert unsalted["data"]["deck"] not in decks
    salts = {Game.objects.get(pk=table.id).salt for table in (first, second)}
    assert len(salts) == 2 and all(HEX64.fullmatch(salt) for salt in salts)


def test_the_export_of_a_finished_game_verifies(
    players: list[Player], outsider: Player, tmp_path: Path
) -> None:
    waiting = create_game(players[2], max_players=3)
    refused(players[2].client.get(game_url(waiting["id"], "export")), 409, "game_not_finished")
    active = start_table(players[2:])
    refused(active.client(0).get(active.url("export")), 409, "game_not_finished")
    table = finished_table(players[:2], moves=5, rules={"stacking": True})

    document = ok(outsider.client.get(table.url("export")))
    assert set(document) == EXPORT_KEYS
    log = db_log(table.id)
    assert [{k: e[k] for k in ("type", "seat", "data")} for e in document["events"]] == log
    assert [e["seq"] for e in document["events"]] == list(range(1, len(log) + 1))
    assert [e["hash"] for e in document["events"]] == chained(document["events"])
    assert document["deck_commitment"] == committed(document["seed"], document["salt"])
    assert document["winner_seat"] == ok(table.client(0).get(table.url()))["winner_seat"]
    assert [seat["player"]["id"] for seat in document["seats"]] == [p.id for p in players[:2]]

    report = verify_export(document)
    assert report.ok, report.text()
    out = _verify_command(table.id)
    assert "verified" in out
    path = tmp_path / "export.json"
    path.write_text(json.dumps(document))
    assert "verified" in _verify_command(str(path))
    # The function a client copies runs without Django: games/fairness.py and games/engine/.
    check = (
        "import sys, runpy; sys.argv = ['fairness', sys.argv[1]];"
        "code = 0\n"
        "try: runpy.run_module('games.fairness', run_name='__main__')\n"
        "except SystemExit as done: code = done.code\n"
        "assert not [m for m in sys.modules if m.startswith('django')], 'imports Django'\n"
        "sys.exit(code)"
    )
    run = subprocess.run(
        [sys.executable, "-c", check, str(path)], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    assert "verified" in run.stdout


def _verify_command(name: str) -> str:
    out = io.StringIO()
    call_command("verify_game", name, stdout=out)
    return out.getvalue()


def test_a_changed_event_fails_verification(players: list[Player]) -> None:
    # Seeded: an unseeded deal may open with a starter's draw, whose change the verifier names
    # as a changed deal, not as a move of the rules.
    table = finished_table(players[:2], moves=9, seed=9)
    rows = list(Game.objects.get(pk=table.id).events.order_by("seq"))
    drawn = next(
        r
        for r in rows
        if r.type == "cards_drawn" and r.data["cards"] and r.data["reason"] == "draw"
    )
    other = next(c for c in engine.CARD_CODES if c not in drawn.data["cards"])
    changed = {**drawn.data, "cards": [other, *drawn.data["cards"][1:]]}
    tamper('UPDATE "games_event" SET "data" = %s WHERE "id" = %s', [json.dumps(changed), drawn.pk])

    report = verify_export(export_of(table))
    assert not report.ok
    assert f"event {drawn.seq} (cards_drawn)" in report.problems[0], report.problems
    assert "was changed" in report.problems[0]
    with pytest.raises(CommandError, match=f"(?s)FAILED.*event {drawn.seq}"):
        call_command("verify_game", str(table.id))

    # A forger who also rewrites every later hash: the chain holds, the seed's deck does not.
    document = export_of(table)
    for item, link in zip(document["events"], chained(document["events"]), strict=True):
        item["hash"] = link
    report = verify_export(document)
    assert not report.ok and len(report.problems) == 1, report.problems
    assert report.problems[0].startswith(f"event {drawn.seq} (cards_drawn): no move of the rules")
    assert "the closest move gives" in report.problems[0]


def test_a_changed_seed_or_salt_fails_verification(players: list[Player]) -> None:
    table = finished_table(players[:2], moves=11)
    document = export_of(table)
    seen = document["deck_commitment"]  # as the view showed it from the start
    assert verify_export(document, seen=seen).ok
    wrong_salt = {**document, "salt": "00" * 32}
    assert "is not sha256" in verify_export(wrong_salt).problems[0]

    # An operator changes the stored seed: the service derives the commitment anew from it, so
    # the export is consistent with itself, but not with its first event nor with what was seen.
    Game.objects.filter(pk=table.id).update(seed=document["seed"] + 1)
    changed = export_of(table)
    report = verify_export(changed)
    assert report.problems == [
        f"the game was started with seed {document['seed']} and salt '{document['salt']}', "
        f"not the revealed seed {document['seed'] + 1} and salt '{document['salt']}'"
    ]
    assert "not to" in verify_export(changed, seen=seen).problems[0]
    with pytest.raises(CommandError, match="the game was started with seed"):
        call_command("verify_game", str(table.id))
    with pytest.raises(CommandError, match="the commitment shown before the deal"):
        call_command("verify_game", str(table.id), commitment=seen)


def test_verify_game_names_what_it_cannot_check(players: list[Player], tmp_path: Path) -> None:
    active = start_table(players[:2])
    with pytest.raises(CommandError, match=r"export .*waits for its end"):
        call_command("verify_game", active.id)
    with pytest.raises(CommandError, match="No such game"):
        call_command("verify_game", "not-a-game")
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    with pytest.raises(CommandError, match="cannot read the export"):
        call_command("verify_game", str(broken))
    with pytest.raises(CommandError, match="not a game export"):
        path = tmp_path / "empty.json"
        path.write_text("{}")
        call_command("verify_game", str(path))


HOUSE = ["stacking", "jump_in", "seven_zero", "draw_until_playable", "uno_auto_penalty"]


@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    seats=st.integers(min_value=2, max_value=4),
    rules=st.sets(st.sampled_from(HOUSE), max_size=3),
    moves=st.integers(min_value=0, max_value=2**32),
)
def test_every_exported_game_verifies(
    make_player: MakePlayer, seats: int, rules: set[str], moves: int
) -> None:
    """verify(export(play)) for games played through the API with random settings."""
    table = finished_table(
        [make_player() for _ in range(seats)], moves=moves, rules=dict.fromkeys(rules, True)
    )
    report = verify_export(export_of(table))
    assert report.ok, report.text()


@pytest.fixture
def random_salts(settings: Settings) -> None:
    """The production rule: a random salt for every game (the rest of the suite fixes one)."""
    settings.UNO_TEST_SALT = None


def play_beside_a_bot(table: Table, person: int, rng: random.Random) -> None:
    """The person plays a listed action on their turns; the bot plays the other seat at once,
    in-process (``UNO_BOT_DELAY`` 0), until the game is finished (``play_to_end`` moves every
    seat itself: a seat left to a bot refuses its player)."""
    for _ in range(3000):
        view = table.view(person)
        if view["status"] != "active":
            break
        if view["you"]["legal_actions"] and table.actor() == person:
            table.act(person, **choose(rng, view, prefer_play=0.95))
    assert view["status"] == "finished", view["status"]


@pytest.mark.django_db(transaction=True)  # the bot's moves follow the commits
def test_a_game_a_bot_took_a_seat_of_at_its_last_timeout_verifies(
    players: list[Player], settings: Settings
) -> None:
    """With ``bot_takeover`` the last timeout keeps its seat (a bot plays on): the verifier
    knew only the timeout that forfeits, and an honest game failed at that event."""
    settings.UNO_BOT_DELAY = 0
    table = start_table(players[:2], target_score=1, bot_takeover=True, max_timeouts=1)
    idle = table.actor()
    person = 1 - idle
    Game.objects.filter(pk=table.id).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    play_beside_a_bot(table, person, random.Random(4))  # its first read applies the timeout
    document = export_of(table)
    assert document["settings"]["bot_takeover"] is True
    assert any(e["type"] == "timed_out" for e in document["events"])
    assert document["seats"][idle]["bot"] == "basic"
    report = verify_export(document)
    assert report.ok, report.text()


@pytest.mark.django_db(transaction=True)  # the bot's moves follow the commits
def test_a_game_a_bot_took_a_resigned_seat_of_verifies(
    players: list[Player], settings: Settings
) -> None:
    """A resignation under ``bot_takeover`` is logged (``seat_taken_over``): the verifier replays
    it as the rules' own step, and the export of the honest game verifies."""
    settings.UNO_BOT_DELAY = 0
    table = start_table(players[:2], target_score=1, bot_takeover=True)
    leaving = 1 - table.actor()  # off its turn
    person = 1 - leaving
    assert table.client(leaving).post(table.url("resign")).status_code == 200
    play_beside_a_bot(table, person, random.Random(6))
    document = export_of(table)
    taken = [e for e in document["events"] if e["type"] == "seat_taken_over"]
    assert [(e["seat"], e["data"]) for e in taken] == [(leaving, {"reason": "resign"})]
    report = verify_export(document)
    assert report.ok, report.text()
    # Without bot_takeover in its settings, the same log is not the rules' game.
    unsettled = {**document, "settings": {**document["settings"], "bot_takeover": False}}
    assert not verify_export(unsettled).ok
