"""The cluster suite: a streaming replica of the test cluster, nginx before two web nodes, two
Celery workers and a beat (``bench.cluster``), all real, on loopback, over the test database.

Started once for the cluster's tests (the replica's base backup and five processes take a few
seconds) and stopped however they end, before any other test runs: its beat sweeps the test
database every second, and its workers would take the notifications and timeouts that later tests
(the webhooks', the timeouts') wait for their own workers to handle. A test that kills a part
starts it again before it returns."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token

from bench.cluster import Cluster, Replica, running_cluster, running_replica
from tests.support.decks import TEST_SALT
from tests.support.streams import Seat, Stream, database_url

# Bots wait BOT_DELAY seconds before they move, so that a worker holding a bot's turn can be killed
# before it plays; the sweep plays a lost bot turn BOT_GRACE seconds after that.
BOT_DELAY = 8
BOT_GRACE = 1


@pytest.fixture(scope="module")
def replica(django_db_setup: Any) -> Iterator[Replica]:
    """A hot standby made after the test database exists, so it holds it too."""
    with running_replica() as standby:
        yield standby


@pytest.fixture(scope="module")
def cluster(replica: Replica, django_db_blocker: Any) -> Iterator[Cluster]:
    url = database_url(django_db_blocker)
    env = {
        "UNO_BOT_DELAY": str(BOT_DELAY),
        "UNO_BOT_GRACE": str(BOT_GRACE),
        "UNO_SWEEP_INTERVAL": "1",
        "UNO_TEST_SALT": TEST_SALT,
        "UNO_STREAM_KEEPALIVE": "15",
    }
    with running_cluster(url, replica, nodes=2, workers=2, env=env) as running:
        yield running


@pytest.fixture
def streams() -> Iterator[list[Stream]]:
    opened: list[Stream] = []
    yield opened
    for stream in opened:
        stream.close()


@pytest.fixture
def make_seat(transactional_db: None) -> Any:
    made = iter(range(1, 10_000))

    def make(name: str = "player") -> Seat:
        user = User.objects.create_user(f"{name}{next(made)}", password=None)
        return Seat(user, Token.objects.create(user=user).key)

    return make
