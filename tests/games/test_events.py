"""GET …/events/: `after`, `limit`, the `next` link, and the `wait` long poll."""

from __future__ import annotations

import threading
import time
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from service import longpoll
from tests.support.concurrency import run_threads
from tests.support.players import MakePlayer, Player
from tests.support.table import Table, db_log, ok, refused, start_table


@pytest.fixture
def table(players: list[Player]) -> Table:
    table = start_table(players[:2], seed=31)
    for _ in range(4):
        table.act(table.actor(), "draw")
        if table.view(0)["round"]["pending"]:
            table.act(table.actor(), "pass")
    return table


@pytest.mark.django_db
def test_the_whole_log(table: Table) -> None:
    page = table.events(0)
    log = db_log(table.id)

    assert page["version"] == len(log) and page["next"] is None
    assert [e["seq"] for e in page["events"]] == list(range(1, len(log) + 1))
    assert [e["type"] for e in page["events"]] == [e["type"] for e in log]
    first = page["events"][0]
    assert set(first) == {"seq", "type", "seat", "at", "data"}
    assert first["type"] == "game_started" and first["at"].endswith(("+00:00", "Z"))


@pytest.mark.django_db
def test_after_and_limit_and_next(table: Table) -> None:
    version = table.view(0)["version"]
    assert version > 7

    page = table.events(1, after=2, limit=3)
    assert [e["seq"] for e in page["events"]] == [3, 4, 5]
    query = parse_qs(urlsplit(page["next"]).query)
    assert query == {"after": ["5"], "limit": ["3"]}
    assert page["next"].startswith("http")

    seqs = []
    url: str | None = table.url("events") + "?limit=3"
    while url is not None:
        page = ok(table.client(1).get(url))
        seqs += [e["seq"] for e in page["events"]]
        url = page["next"]
    assert seqs == list(range(1, version + 1))

    assert table.events(0, after=version)["events"] == []
    assert table.events(0, after=version + 50) == {
        "events": [],
        "version": version,
        "next": None,
    }
    assert len(table.events(0, limit=1000)["events"]) == version


@pytest.mark.django_db
@pytest.mark.parametrize(
    "query",
    [
        {"limit": 1001},
        {"limit": 0},
        {"limit": "ten"},
        {"after": -1},
        {"after": "x"},
        {"wait": 31},
        {"wait": -1},
        {"since": 3},
    ],
)
def test_bad_queries_are_invalid(table: Table, query: dict[str, Any]) -> None:
    refused(table.client(0).get(table.url("events"), query), 400, "invalid")


@pytest.mark.django_db
def test_spectators_read_the_log(table: Table, outsider: Player) -> None:
    page = ok(outsider.client.get(table.url("events")))
    assert len(page["events"]) == page["version"]


@pytest.mark.django_db
def test_wait_returns_at_once_when_there_are_events(table: Table) -> None:
    started = time.monotonic()
    page = table.events(0, after=1, wait=20)
    assert page["events"][0]["seq"] == 2
    assert time.monotonic() - started < 5


@pytest.fixture
def fast_poll(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """Re-read every 20 ms, and tell when the long poll has looked once and found nothing."""
    monkeypatch.setattr(longpoll, "RECHECK", 0.02)
    polling = threading.Event()

    class Watched(threading.Condition):
        def wait(self, timeout: float | None = None) -> bool:
            polling.set()
            return super().wait(timeout)

    monkeypatch.setattr(longpoll, "_changed", Watched())
    return polling


@pytest.mark.django_db(transaction=True)
def test_wait_returns_the_event_that_arrives(
    make_player: MakePlayer, fast_poll: threading.Event
) -> None:
    players = [make_player(f"w{seat}-") for seat in range(2)]
    table = start_table(players, seed=8)
    version = table.view(0)["version"]
    actor = table.actor()
    actor_client = players[actor].fresh_client()
    watcher_client = players[1 - actor].fresh_client()

    def work(i: int, barrier: threading.Barrier) -> Any:
        if i == 0:  # the watcher: waits for the next event
            started = time.monotonic()
            response = watcher_client.get(table.url("events"), {"after": version, "wait": 20})
            return response.status_code, response.json(), time.monotonic() - started
        # the actor: acts once the watcher's request is waiting
        assert fast_poll.wait(timeout=20), "the long poll never waited"
        response = actor_client.post(table.url("actions"), {"action": "draw"}, format="json")
        return response.status_code, response.json()

    (status, page, elapsed), (acted, view) = run_threads(2, work)

    assert (status, acted) == (200, 200)
    assert elapsed < 15
    assert page["events"], page
    assert page["events"][0]["seq"] == version + 1
    assert page["events"][0]["type"] == "cards_drawn" and page["events"][0]["seat"] == actor
    assert "cards" not in page["events"][0]["data"]  # someone else's draw
    assert [e["seq"] for e in page["events"]] == list(range(version + 1, view["version"] + 1))
    assert page["version"] == view["version"]


@pytest.mark.django_db(transaction=True)
def test_wait_returns_an_empty_list_when_nothing_happens(
    make_player: MakePlayer, fast_poll: threading.Event
) -> None:
    players = [make_player(f"z{seat}-") for seat in range(2)]
    table = start_table(players, seed=9)
    version = table.view(0)["version"]

    started = time.monotonic()
    page = table.events(0, after=version, wait=1)
    elapsed = time.monotonic() - started

    assert page == {"events": [], "version": version, "next": None}
    assert fast_poll.is_set()
    assert 1 <= elapsed < 5
