"""What an export claims beside its hashed log (its settings, its seats, its winner) is held
against the replay of that log; and a file that is no export is said so in one line, by every
entry point that reads one (docs/fairness.md).

Exports are made by the service, through HTTP on PostgreSQL, then changed as a forger would: the
fields outside the hashed events as they are, the events with every hash recomputed after them.
"""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db.models import F
from django.utils import timezone

from games.engine.bots import choose
from games.fairness import verify_export
from games.models import Game
from tests.support.fairness import chained
from tests.support.players import MakePlayer, Player
from tests.support.table import Table, ok, play_to_end, start_table

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def export_of(table: Table) -> dict[str, Any]:
    body: dict[str, Any] = ok(table.client(0).get(table.url("export")))
    return body


def played(players: list[Player], moves: int, **settings: Any) -> dict[str, Any]:
    """The export of a game bots played through HTTP to its end."""
    table = start_table(players, **settings)
    final = play_to_end(table, random.Random(moves))
    assert final["status"] == "finished"
    return export_of(table)


def rechained(document: dict[str, Any]) -> dict[str, Any]:
    for item, link in zip(document["events"], chained(document["events"]), strict=True):
        item["hash"] = link
    return document


def verified(document: dict[str, Any]) -> None:
    report = verify_export(document)
    assert report.ok, report.text()


# --- honest games verify, whatever their settings --------------------------------------------


@pytest.mark.parametrize(
    "chosen",
    [
        pytest.param({"preset": "house", "teams": 2}, id="house-rules-and-teams"),
        pytest.param({"preset": "party", "target_score": 60}, id="party-rules-several-rounds"),
        pytest.param(
            {"rules": {"scoring": "penalty", "two_gives": True, "multi_play": True}},
            id="penalty-scoring-gifts-sets",
        ),
    ],
)
def test_an_honest_game_verifies_with_its_settings(
    make_player: MakePlayer, chosen: dict[str, Any]
) -> None:
    document = played([make_player() for _ in range(4)], moves=7, **{"target_score": 1, **chosen})
    verified(document)


def test_an_honest_game_with_forfeits_and_timeouts_verifies(make_player: MakePlayer) -> None:
    """A seat timed out of the game, another resigned: the seats show them forfeited."""
    table = start_table([make_player() for _ in range(4)], target_score=1, max_timeouts=1)
    idle = table.actor()
    Game.objects.filter(pk=table.id).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    view = table.view((idle + 1) % 4)  # the read applies the overdue timeout: a forfeit
    assert view["seats"][idle]["status"] == "forfeited"
    leaver = next(s for s in range(4) if s != idle and s != table.actor())
    ok(table.client(leaver).post(table.url("resign")))
    play_to_end(table, random.Random(5))
    document = export_of(table)
    assert {document["seats"][s]["status"] for s in (idle, leaver)} == {"forfeited"}
    verified(document)


def test_an_honest_game_on_a_bank_clock_verifies_when_its_players_took_their_time(
    players: list[Player],
) -> None:
    """The seconds a seat had left when it moved are read from the clock, not logged: the
    verifier knew only a move made at once, and failed an honest game at its first slow move."""
    clock = {"type": "bank", "initial": 600, "increment": 30, "max": 900}
    table = start_table(players[:2], target_score=1, clock=clock)
    rng = random.Random(8)
    view = table.view(0)
    for _ in range(3000):
        if view["status"] != "active":
            break
        Game.objects.filter(pk=table.id).update(  # the seat to act thought for a while
            turn_started_at=F("turn_started_at") - timedelta(seconds=rng.randint(1, 40))
        )
        actor = table.actor()
        view = table.act(actor, **choose(rng, table.view(actor), prefer_play=0.95))
    assert view["status"] == "finished"
    document = export_of(table)
    banks = [e["data"]["bank"] for e in document["events"] if e["type"] == "bank_changed"]
    assert any(bank % 30 for bank in banks), "no move spent time"
    verified(document)


# --- what the export claims beside its log -------------------------------------------------------

Change = Callable[[dict[str, Any]], None]


def _winner(document: dict[str, Any]) -> int:
    winner: int = document["winner_seat"]
    return winner


def _loser(document: dict[str, Any]) -> int:
    return 1 - _winner(document)


def _flip_rule(document: dict[str, Any]) -> None:
    rules = document["settings"]["rules"]
    rules["stacking"] = not rules["stacking"]


def _edit_event(kind: str, edit: Callable[[dict[str, Any]], None]) -> Change:
    def change(document: dict[str, Any]) -> None:
        edit(next(e for e in document["events"] if e["type"] == kind)["data"])
        rechained(document)

    return change


CHANGES: dict[str, tuple[Change, str]] = {
    "a seat's score": (
        lambda d: d["seats"][_winner(d)].update(score=d["seats"][_winner(d)]["score"] + 50),
        "seat {winner}: the export shows score",
    ),
    "a seat's status": (
        lambda d: d["seats"][_loser(d)].update(status="forfeited"),
        'seat {loser}: the export shows status "forfeited", the replay of the log gives "playing"',
    ),
    "a seat's team": (
        lambda d: d["seats"][0].update(team=1),
        "seat 0: the export shows team 1, the replay of the log gives null",
    ),
    "a seat left out": (
        lambda d: d["seats"].pop(),
        "the export lists 1 seats, but the game was dealt to 2 (event 1, game_started)",
    ),
    "the seats' order": (
        lambda d: d["seats"].reverse(),
        "seats[0] is seat 1: the export lists its seats in order",
    ),
    "a house rule": (_flip_rule, "settings.rules.stacking is false in the export"),
    "an unknown house rule": (
        lambda d: d["settings"]["rules"].update(no_such_rule=True),
        "settings.rules.no_such_rule is no house rule of the rules engine",
    ),
    "scoring": (
        lambda d: d["settings"]["rules"].update(scoring="penalty"),
        'settings.rules.scoring is "penalty" in the export, but the game was played with "winner"',
    ),
    "target_score": (
        lambda d: d["settings"].update(target_score=500),
        "settings.target_score is 500 in the export, but the game was played with 1",
    ),
    "max_timeouts": (
        lambda d: d["settings"].update(max_timeouts=9),
        "settings.max_timeouts is 9 in the export, but the game was played with 3",
    ),
    "teams": (
        lambda d: d["settings"].update(teams=2),
        "settings.teams is 2 in the export, but the game was played with 0",
    ),
    "clock": (
        lambda d: d["settings"].update(
            clock={"type": "bank", "initial": 60, "increment": 5, "max": 60}
        ),
        "settings.clock is",
    ),
    "max_players": (
        lambda d: d["settings"].update(max_players=1),
        "settings.max_players is 1, but the game was dealt to 2 seats",
    ),
    "round_ended points, rechained": (
        _edit_event("round_ended", lambda data: data["points"].reverse()),
        "(round_ended): no move of the rules",
    ),
    "game_ended winner, rechained": (
        _edit_event("game_ended", lambda data: data.update(winner_seat=1 - data["winner_seat"])),
        "(game_ended): no move of the rules",
    ),
}


@pytest.mark.parametrize("name", list(CHANGES))
def test_an_export_whose_claims_the_replay_does_not_give_fails(
    players: list[Player], name: str, tmp_path: Path
) -> None:
    document = played(players[:2], moves=3, target_score=1, rules={"stacking": True})
    verified(document)
    change, expected = CHANGES[name]
    change(document)
    expected = expected.format(winner=_winner(document), loser=_loser(document))

    report = verify_export(document)
    assert not report.ok, f"a changed {name} verified"
    assert any(expected in problem for problem in report.problems), report.problems
    path = tmp_path / "export.json"
    path.write_text(json.dumps(document))
    with pytest.raises(CommandError, match="FAILED"):
        call_command("verify_game", str(path), stdout=io.StringIO())


def test_the_winner_recomputed_for_a_changed_winner_seat_is_named(players: list[Player]) -> None:
    document = played(players[:2], moves=3, target_score=1)
    winner = document["winner_seat"]
    document["winner_seat"] = 1 - winner
    assert f"the log makes seat {winner} the winner, not {1 - winner}" in (
        verify_export(document).problems
    )


# --- a file that is no export: one line, a non-zero exit, never a traceback ---------------------

BAD_INPUTS: dict[str, tuple[str, str]] = {
    "not JSON": ("{", "is not JSON: Expecting property name"),
    "not UTF-8": ("\udcff", "is not UTF-8 text"),
    "a JSON list": ("[1, 2]", "holds a list, not a game export (a JSON object)"),
    "a JSON string": ('"hello"', "holds a string, not a game export"),
    "nested too deep": ("[" * 100_000, "is not JSON"),
    "an empty object": ("{}", "not a game export: 'id' is missing"),
    "events not a list": (
        '{"id": "g", "settings": {}, "seats": [], "events": 5, "seed": 1, "salt": null, '
        '"deck_commitment": null, "winner_seat": null}',
        "not a game export: 'events' must be a list, not a number",
    ),
    "a seed that is a string": (
        '{"id": "g", "settings": {}, "seats": [], "events": [], "seed": "7", "salt": null, '
        '"deck_commitment": null, "winner_seat": null}',
        "not a game export: 'seed' must be an integer, not a string",
    ),
}


def _bad_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "bad.json"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    return path


def _export_with(document: dict[str, Any], tmp_path: Path, change: Change) -> Path:
    change(document)
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(document))
    return path


def _one_line_error(run: subprocess.CompletedProcess[str], expected: str) -> None:
    assert run.returncode != 0
    assert "Traceback" not in run.stderr, run.stderr
    assert run.stderr.count("\n") == 1 and expected in run.stderr, run.stderr
    assert run.stdout == ""


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        env=environment,
    )


@pytest.mark.parametrize("name", list(BAD_INPUTS))
def test_a_file_that_is_no_export_gives_one_line_and_no_traceback(
    name: str, tmp_path: Path
) -> None:
    text, expected = BAD_INPUTS[name]
    path = _bad_file(tmp_path, text)
    # The checker a client copies, as it runs: a file it cannot read is exit status 2.
    run = _run("-m", "games.fairness", str(path))
    _one_line_error(run, expected)
    assert run.returncode == 2
    # The operator's command: one line too.
    with pytest.raises(CommandError) as refused:
        call_command("verify_game", str(path))
    assert expected in str(refused.value) and "\n" not in str(refused.value)


def test_the_command_line_names_a_missing_file_and_a_wrong_commitment(tmp_path: Path) -> None:
    _one_line_error(
        _run("-m", "games.fairness", str(tmp_path / "missing.json")),
        "cannot read",
    )
    path = _bad_file(tmp_path, "{}")
    _one_line_error(_run("-m", "games.fairness", str(path), "xyz"), "is not 64 hex digits")
    with pytest.raises(CommandError, match="is not 64 hex digits"):
        call_command("verify_game", str(path), commitment="xyz")
    _one_line_error(_run("manage.py", "verify_game", str(path)), "'id' is missing")


WRONG_TYPES: dict[str, tuple[Change, str]] = {
    "an event that is a number": (
        lambda d: d["events"].__setitem__(3, 7),
        "'events[3]' must be an object, not a number",
    ),
    "an event without data": (
        lambda d: d["events"][2].pop("data"),
        "'events[2].data' is missing",
    ),
    "a seat as a string": (
        lambda d: d["events"][4].update(seat="1"),
        "'events[4].seat' must be an integer or null, not a string",
    ),
    "a score as a string": (
        lambda d: d["seats"][0].update(score="12"),
        "'seats[0].score' must be an integer, not a string",
    ),
    "settings without rules": (
        lambda d: d["settings"].pop("rules"),
        "'settings.rules' is missing",
    ),
    "a winner as true": (
        lambda d: d.update(winner_seat=True),
        "'winner_seat' must be an integer or null, not true",
    ),
}


@pytest.mark.parametrize("name", list(WRONG_TYPES))
def test_an_export_with_a_key_missing_or_of_the_wrong_type_gives_one_line(
    players: list[Player], name: str, tmp_path: Path
) -> None:
    document = played(players[:2], moves=3, target_score=1)
    change, expected = WRONG_TYPES[name]
    path = _export_with(document, tmp_path, change)
    report = verify_export(json.loads(path.read_text()))
    assert report.malformed is not None and report.text() == f"not a game export: {expected}"
    _one_line_error(_run("-m", "games.fairness", str(path)), expected)
    with pytest.raises(CommandError, match="not a game export") as refused:
        call_command("verify_game", str(path))
    assert "\n" not in str(refused.value)


def _play_data(at: int, value: Any) -> Change:
    """Event ``at`` (a card_played) with ``value`` for its cards, colour and target."""

    def change(document: dict[str, Any]) -> None:
        document["events"][at]["data"].update(cards=value, color=value, target=value)

    return change


def test_forged_event_data_fails_verification_without_a_traceback(players: list[Player]) -> None:
    """Data the rules engine never writes, in a log whose hashes were recomputed: the replay
    says it does not follow, and raises nothing."""
    document = played(players[:2], moves=3, target_score=1, rules={"stacking": True})
    forgeries: list[Change] = [
        lambda d: d["events"][0]["data"].update(players=10**9),
        lambda d: d["events"][0]["data"]["options"].update(stacking="yes"),
        lambda d: d["events"][0]["data"]["options"].update(no_such_option=1),
        lambda d: d["events"][0]["data"].update(options=[]),
        lambda d: d["events"][1]["data"].update(given=True, deck=5),
        lambda d: d["events"][1]["data"].update(deck=None),
    ]
    plays = [n for n, e in enumerate(document["events"]) if e["type"] == "card_played"]
    for at in plays:
        for value in (None, 5, [], ["no-such-card"], [[1]], "red-1", {"a": 1}):
            forgeries.append(_play_data(at, value))
    for forge in forgeries:
        forged = json.loads(json.dumps(document))
        forge(forged)
        report = verify_export(rechained(forged))
        assert not report.ok and report.malformed is None, report.text()
