"""The reactions to a write are subscribers of its facts: they run after the commit, in the
order of their list, once, never for a write that did not commit; one that fails is logged and
counted, and neither undoes the write nor stops the others.

The subscribers observed are the real list (``service.subscribers.SUBSCRIBERS``, whose deadline
task lands on the real Redis broker) with recording ones around it, and one that fails.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from prometheus_client import REGISTRY

from games.engine import IllegalMove
from games.models import Game
from notifications.models import Notification
from service import facts, play
from service.facts import WriteFacts
from service.lobby import NewGame, game_create, game_join
from service.subscribers import SUBSCRIBERS, TIME_OUT_TASK
from tests.support.timeouts import started_game

pytestmark = pytest.mark.django_db(transaction=True)  # real commits: subscribers run on them

Seen = list[tuple[str, WriteFacts]]


def queued(broker: Any) -> list[dict[str, Any]]:
    with broker.connection_for_write() as connection:
        client = connection.default_channel.client
        raw = client.lrange(broker.conf.task_default_queue, 0, -1)
    return [json.loads(message)["headers"] for message in raw]


def failures(name: str) -> float:
    value = REGISTRY.get_sample_value("uno_subscriber_failures_total", {"subscriber": name})
    return value or 0.0


def breaks_down(_: WriteFacts) -> None:
    raise RuntimeError("a reaction fails")


@pytest.fixture
def seen() -> Iterator[Seen]:
    """Every write's facts as a subscriber before the real list and one after it see them, with
    a failing subscriber between the first and the real list."""
    found: Seen = []
    facts.register(
        [
            lambda f: found.append(("first", f)),
            breaks_down,
            *SUBSCRIBERS,
            lambda f: found.append(("last", f)),
        ]
    )
    try:
        yield found
    finally:
        facts.register(SUBSCRIBERS)


def test_a_failing_subscriber_is_logged_and_counted_and_the_write_and_the_others_go_on(
    players: Any, broker: Any, seen: Seen, caplog: pytest.LogCaptureFixture
) -> None:
    game = started_game(players[:2], turn_timeout=60)
    seen.clear()
    before, counted = queued(broker), failures("breaks_down")
    actor = game.current_seat
    assert actor is not None

    with caplog.at_level(logging.ERROR, logger="service.facts"):
        played = play.game_act(player=players[actor], game_id=game.pk, action={"action": "draw"})

    stored = Game.objects.get(pk=game.pk)
    assert stored.version == played.game.version > game.version  # the write stands
    assert [name for name, _ in seen] == ["first", "last"]  # in order, once each
    first, last = seen[0][1], seen[1][1]
    assert first is last  # one set of facts for every subscriber
    assert first.game.version == stored.version
    assert first.events[0]["type"] == "cards_drawn"
    assert first.turn_changed and first.appended and first.deadline_moved
    assert not first.finished and first.seats_taken == ()
    assert failures("breaks_down") == counted + 1
    assert any("breaks_down" in record.getMessage() for record in caplog.records)
    # The real subscribers between the failing one and the last still ran: the deadline's task.
    now = queued(broker)
    new = now[: len(now) - len(before)]  # the broker's list has the newest message first
    assert [h["task"] for h in new] == [TIME_OUT_TASK]
    assert new[0]["argsrepr"] == repr([str(game.pk), stored.version])


def test_a_refused_write_has_no_subscriber_run(players: Any, broker: Any, seen: Seen) -> None:
    game = started_game(players[:2], turn_timeout=60)
    seen.clear()
    idle = 1 - (game.current_seat or 0)

    with pytest.raises(IllegalMove):
        play.game_act(player=players[idle], game_id=game.pk, action={"action": "draw"})

    assert seen == []


def test_a_seat_taken_is_a_fact_of_a_write_that_appends_no_event(
    players: Any, broker: Any, seen: Seen
) -> None:
    waiting = game_create(player=players[0], spec=NewGame())
    seen.clear()

    game_join(player=players[1], game_id=waiting.pk)

    assert [name for name, _ in seen] == ["first", "last"]
    written = seen[0][1]
    assert not written.appended and not written.deadline_moved
    assert [(j.seat, j.player_id) for j in written.seats_taken] == [(1, players[1].pk)]
    assert written.game.pk == waiting.pk
    # Its notification row was written with the write, before the commit (the outbox).
    assert Notification.objects.filter(player=players[0], kind="player_joined").count() == 1
