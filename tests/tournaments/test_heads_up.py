"""A tournament's players hear that it starts soon before it starts: those entered
``UNO_TOURNAMENT_HEADS_UP`` seconds before the start are told then (``tournament_starting``, the
log's ``start_near``), those who join later at the start, each once; a player who withdrew is not
told. The beat sweep finds the heads-up due; a real worker takes it from the broker."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone

from games.models import Tournament
from notifications.models import Notification
from service import tournament_steps
from service.tasks import sweep_tournaments
from tests.support.players import MakePlayer, Player
from tests.support.table import ok
from tests.support.tournaments import create, join_all, log_of, start_now, url, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def told(player: Player) -> list[dict[str, Any]]:
    """The ``tournament_starting`` notifications ``player`` has, oldest first."""
    rows = Notification.objects.filter(player=player.user, kind="tournament_starting")
    return [row.data for row in rows.order_by("id")]


def heads_up_due(tournament_id: str) -> datetime:
    """The stored start moved so that the heads-up is due now (the start 1 s after it)."""
    starts = timezone.now() + timedelta(seconds=settings.UNO_TOURNAMENT_HEADS_UP - 1)
    Tournament.objects.filter(pk=tournament_id).update(starts_at=starts)
    return starts


def test_players_entered_hear_before_the_start_and_later_ones_at_it(
    make_player: MakePlayer,
) -> None:
    host, ada, bob, carl, dan = (make_player(name) for name in ("h", "ada", "bob", "carl", "dan"))
    tournament = create(host, name="Friday Cup", table_size=2, rounds=1)
    tid = tournament["id"]
    join_all(tid, [ada, bob, dan])
    ok(dan.client.post(url(tid, "withdraw")))
    assert sweep_tournaments() == 0, "an hour ahead: nothing is due"
    assert told(ada) == []

    starts = heads_up_due(tid)
    assert sweep_tournaments() == 1

    expected = {"tournament": tid, "name": "Friday Cup", "starts_at": starts.isoformat()}
    assert told(ada) == [expected] and told(bob) == [expected]
    assert told(dan) == [], "a player who withdrew is not told"
    near = [e for e in log_of(tid) if e["type"] == "start_near"]
    assert [e["data"] for e in near] == [{"players": [ada.id, bob.id]}]
    assert ok(ada.client.get(url(tid)))["status"] == "upcoming"
    assert sweep_tournaments() == 0, "told once: the sweep finds nothing more to do"

    join_all(tid, [carl])
    start_now(tid)

    assert Tournament.objects.get(pk=tid).status == "running"
    assert len(told(carl)) == 1 and told(carl)[0]["name"] == "Friday Cup"
    assert len(told(ada)) == 1 and len(told(bob)) == 1, "those told before are not told again"
    assert told(dan) == []


def test_a_tournament_whose_start_comes_first_tells_everyone_at_it(
    make_player: MakePlayer,
) -> None:
    """No sweep ran in the heads-up's time (beat was down): the start tells every player."""
    host, ada, bob = (make_player(name) for name in ("h", "ada", "bob"))
    tid = create(host, table_size=2, rounds=1)["id"]
    join_all(tid, [ada, bob])
    start_now(tid)

    assert [len(told(p)) for p in (ada, bob)] == [1, 1]
    assert not any(e["type"] == "start_near" for e in log_of(tid))


def test_a_worker_takes_the_heads_up_from_the_broker(
    make_player: MakePlayer, worker: Any, broker: Any
) -> None:
    host, ada, bob = (make_player(name) for name in ("h", "ada", "bob"))
    tid = create(host, table_size=2, rounds=1)["id"]
    join_all(tid, [ada, bob])
    heads_up_due(tid)

    broker.send_task(tournament_steps.SWEEP_TASK)  # what beat sends every few seconds

    wait_for(lambda: told(ada) and told(bob), "both players told by the worker")
    assert Tournament.objects.get(pk=tid).status == "upcoming"


def test_the_heads_up_is_queued_when_the_tournament_is_created(
    make_player: MakePlayer, settings: Any
) -> None:
    """A tournament created inside the heads-up's time has its heads-up step taken at once after
    the commit (no broker here: in-process), before anyone could join: the players who join
    are told at the start."""
    settings.UNO_TOURNAMENT_HEADS_UP = 2 * 3600
    host, ada, bob = (make_player(name) for name in ("h", "ada", "bob"))
    tid = create(host, table_size=2, rounds=1)["id"]
    assert [e["type"] for e in log_of(tid)] == ["tournament_created", "start_near"]
    join_all(tid, [ada, bob])
    start_now(tid)
    assert [len(told(p)) for p in (ada, bob)] == [1, 1]
    assert tournament_steps.heads_up_at(Tournament.objects.get(pk=tid)) < timezone.now()
