"""The sweep's read of due reminders reads only the turns still due one (issue 28): a reminded
turn and a finished game hold no ``remind_at``, so the ``remind_at`` index hands the sweep the due
turns alone, however many games wait reminded or lie finished. Checked on the plan PostgreSQL runs
(``EXPLAIN ANALYZE``: the rows the index returned), not on timing."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Game
from notifications import reminders as due_reminders
from service import play, reminders
from tests.notifications.test_reminders import near_its_deadline
from tests.support.timeouts import started_game

pytestmark = pytest.mark.django_db


def nodes(plan: dict[str, Any]) -> list[dict[str, Any]]:
    return [plan, *(node for child in plan.get("Plans", []) for node in nodes(child))]


def uses(node: dict[str, Any], index: str) -> bool:
    children = node.get("Plans", [])
    return node.get("Index Name") == index or (
        node["Node Type"] == "Bitmap Heap Scan" and any(uses(c, index) for c in children)
    )


def rows_read_by_the_reminder_index() -> int:
    """Run the sweep's read (``due_games``) under ``EXPLAIN (ANALYZE, FORMAT JSON)``, planned as
    on a big table (no sequential scan), and return the live game rows its index
    (``game_reminder_due``) handed to it: those kept and those its other conditions removed."""
    with CaptureQueriesContext(connection) as queries:
        due_reminders.due_games()
    (sql,) = [q["sql"] for q in queries.captured_queries]
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE games_game")
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {sql}")
        (plan,) = cursor.fetchone()[0]
    scans = [
        n
        for n in nodes(plan["Plan"])
        if n.get("Relation Name") == "games_game" and uses(n, "game_reminder_due")
    ]
    assert scans, f"the sweep's read does not use the index of due reminders: {plan}"
    return sum(
        int(n["Actual Rows"] + n.get("Rows Removed by Filter", 0))
        + int(n.get("Rows Removed by Index Recheck", 0))
        for n in scans
    )


def test_a_reminded_turn_and_a_finished_game_hold_no_reminder_time(users: list[User]) -> None:
    reminded = near_its_deadline(started_game(users[:2], turn_timeout=1000), 100)
    assert reminders.remind_due() == 1
    reminded.refresh_from_db()
    assert reminded.remind_at is None
    assert reminders.remind_due() == 0  # and it is not reminded twice

    ended = started_game(users[2:4], turn_timeout=1000)
    play.game_resign(player=users[2], game_id=ended.pk)
    ended.refresh_from_db()
    assert ended.status == "finished"
    assert ended.turn_deadline is None and ended.remind_at is None


def test_the_sweep_reads_only_the_turns_due_a_reminder(users: list[User]) -> None:
    for _ in range(3):  # reminded, still running: their last 20% of the turn
        near_its_deadline(started_game(users[:2], turn_timeout=1000), 100)
        assert reminders.remind_due() == 1
    for _ in range(2):  # finished after their reminder time
        game = near_its_deadline(started_game(users[2:4], turn_timeout=1000), 100)
        play.game_resign(player=users[2], game_id=game.pk)
    due = near_its_deadline(started_game(users[:2], turn_timeout=1000), 100)
    near_its_deadline(started_game(users[2:4], turn_timeout=1000), 500)  # not due yet

    assert Game.objects.filter(remind_at__isnull=False).count() == 2
    assert rows_read_by_the_reminder_index() == 1
    assert due_reminders.due_games() == [(due.pk, due.version)]
