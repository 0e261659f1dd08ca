"""The arithmetic of a clock that stands still during pauses (no database)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from games.timekeeping import ran, runs_out

T0 = datetime(2026, 12, 1, 12, tzinfo=UTC)
H = timedelta(hours=1)


def test_without_pauses_a_clock_runs_out_after_its_time() -> None:
    assert runs_out(T0, 3600, ()) == T0 + H
    assert ran(T0, T0 + 2 * H, ()) == 7200


def test_a_deadline_inside_a_pause_moves_past_its_end_by_the_time_that_was_left() -> None:
    pause = (T0 + 2 * H, T0 + 50 * H)
    assert runs_out(T0, 3 * 3600, [pause]) == pause[1] + H
    assert ran(T0, pause[1] + H, [pause]) == 3 * 3600


def test_a_clock_started_during_a_pause_runs_from_its_end() -> None:
    pause = (T0 - H, T0 + 10 * H)
    assert runs_out(T0, 3600, [pause]) == pause[1] + H


def test_a_pause_after_the_deadline_changes_nothing() -> None:
    assert runs_out(T0, 3600, [(T0 + H, T0 + 5 * H)]) == T0 + H
    assert runs_out(T0, 3600, [(T0 - 5 * H, T0 - H)]) == T0 + H


def test_several_pauses_add_up() -> None:
    pauses = [(T0 + H, T0 + 2 * H), (T0 + 3 * H, T0 + 5 * H)]
    assert runs_out(T0, 3 * 3600, pauses) == T0 + 6 * H
    assert ran(T0, T0 + 6 * H, pauses) == 3 * 3600
