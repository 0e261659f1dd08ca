"""The bank clock through HTTP: creation, the view, the increment after a move, and its cap."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Event, Game
from tests.support.players import Player
from tests.support.table import GAMES, SEED, Table, create_game, ok, refused, start_table
from tests.support.timeouts import pass_time

pytestmark = pytest.mark.django_db
DAY = 86400


def bank_clock(initial: int, increment: int, most: int) -> dict[str, Any]:
    return {"type": "bank", "initial": initial, "increment": increment, "max": most}


def own_move(table: Table) -> tuple[int, dict[str, Any]]:
    """The seat to act and a move of it that hands on the turn (a draw, the pass after one)."""
    seat = table.actor()
    actions = table.view(seat)["you"]["legal_actions"]
    for name in ("pass", "draw", "accept", "color"):
        for action in actions:
            if action["action"] == name:
                return seat, action
    return seat, actions[0]


def move(table: Table) -> int:
    """The seat to act makes a move that hands on the turn; which seat it was."""
    seat, action = own_move(table)
    ok(table.post(seat, action))
    return seat


def banks_written(table: Table, after: int) -> list[tuple[int | None, int]]:
    rows = Event.objects.filter(game_id=table.id, seq__gt=after, type="bank_changed")
    return [(row.seat, row.data["bank"]) for row in rows.order_by("seq")]


def test_a_bank_clock_is_shown_in_settings_and_every_seat_starts_with_it(
    players: list[Player],
) -> None:
    table = start_table(players[:2], seed=SEED, clock=bank_clock(600, 60, 900))
    view = table.view(1)
    assert view["settings"]["clock"] == bank_clock(600, 60, 900)
    assert [seat["bank"] for seat in view["seats"]] == [600, 600]
    runs_out = datetime.fromisoformat(view["round"]["bank_runs_out_at"])
    assert runs_out == datetime.fromisoformat(view["round"]["turn_deadline"])
    assert abs(runs_out - (timezone.now() + timedelta(seconds=600))) < timedelta(seconds=30)


def test_the_bank_clock_defaults_to_three_days_one_day_and_seven(players: list[Player]) -> None:
    game = create_game(players[0], clock={"type": "bank"})
    assert game["settings"]["clock"] == bank_clock(3 * DAY, DAY, 7 * DAY)


def test_the_move_clock_is_the_default_and_shows_no_banks(players: list[Player]) -> None:
    table = start_table(players[:2], seed=SEED)
    view = table.view(0)
    assert view["settings"]["clock"] == {"type": "move"}
    assert all("bank" not in seat for seat in view["seats"])
    assert "bank_runs_out_at" not in view["round"]


@pytest.mark.parametrize(
    ("clock", "code"),
    [
        ({"type": "sand"}, "invalid"),
        ({"type": "bank", "initial": 0}, "invalid"),
        ({"type": "bank", "increment": -5}, "invalid"),
        ({"type": "bank", "max": 10**9}, "invalid"),
        ({"type": "bank", "initial": "60"}, "invalid"),
        ({"type": "bank", "hourglass": 1}, "invalid"),
        ({"type": "move", "initial": 60}, "invalid"),
        ({}, "invalid"),
        ("bank", "invalid"),
        ({"type": "bank", "initial": 900, "increment": 60, "max": 600}, "invalid_clock"),
        ({"type": "bank", "initial": 60, "increment": 700, "max": 600}, "invalid_clock"),
    ],
)
def test_a_bad_clock_is_refused_with_a_code(players: list[Player], clock: Any, code: str) -> None:
    host = players[0]
    before = Game.objects.count()
    refused(host.client.post(GAMES, {"clock": clock}, format="json"), 400, code)
    assert Game.objects.count() == before


def test_a_move_adds_the_increment_to_what_was_left_up_to_the_max(
    players: list[Player],
) -> None:
    """Seat A thinks 400 s of its 1000: 600 left + 300 = 900. Seat B moves at once: 1000 + 300
    is more than the max, 1200."""
    table = start_table(players[:2], seed=SEED, clock=bank_clock(1000, 300, 1200))
    first = table.actor()

    game = Game.objects.get(pk=table.id)
    version = game.version
    pass_time(game, 400)
    assert game.turn_started_at is not None
    move(table)
    # The 400 s and what the requests took (seconds on a loaded machine): the bank lost no
    # more than that, and at least the 400 s.
    used = (timezone.now() - game.turn_started_at).total_seconds()
    (written,) = banks_written(table, version)
    assert written[0] == first and 1000 + 300 - round(used) <= written[1] <= 900
    assert table.view(1 - first)["seats"][first]["bank"] == written[1]

    other = 1 - first
    while table.actor() != other:
        move(table)
    version = Game.objects.get(pk=table.id).version
    move(table)
    assert banks_written(table, version) == [(other, 1200)]
    assert table.view(first)["seats"][other]["bank"] == 1200


def test_the_next_seat_runs_from_its_own_bank(players: list[Player]) -> None:
    table = start_table(players[:2], seed=SEED, clock=bank_clock(1000, 100, 5000))
    first = table.actor()
    move(table)
    while table.actor() == first:
        move(table)
    game = Game.objects.get(pk=table.id)
    assert game.turn_deadline is not None and game.turn_started_at is not None
    banks = table.view(0)["seats"]
    assert game.turn_deadline - game.turn_started_at == timedelta(seconds=banks[1 - first]["bank"])
    # deadline_soon comes after 80% of the bank, not of turn_timeout (a day by default)
    assert game.remind_at == game.turn_started_at + timedelta(
        seconds=0.8 * banks[1 - first]["bank"]
    )
