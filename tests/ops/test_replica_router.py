"""The replica router (``unoservice.replica``): off when ``DATABASE_REPLICA_URL`` is unset, and
with it, which reads may go to the replica. The real replica is tests/cluster's (make
check-cluster): there a lagging list shows stale while the game view shows the write."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.test import override_settings

from games import selectors
from players.selectors import leaderboard
from tests.support.deployment import ROOT
from unoservice import replica

WITH_REPLICA = {**settings.DATABASES, replica.REPLICA: settings.DATABASES["default"]}


def test_unset_there_is_no_replica_and_marked_reads_use_the_primary(db: Any) -> None:
    player = User.objects.create_user("reader", password=None)

    assert "replica" not in settings.DATABASES and not settings.DATABASE_ROUTERS
    assert selectors.game_list(player).db == "default"
    assert leaderboard().db == "default"
    with replica.lagging_reads():
        assert replica.read_alias() == "default"


@pytest.mark.filterwarnings("ignore:Overriding setting DATABASES")
@override_settings(DATABASES=WITH_REPLICA)  # the alias named (read_alias never connects to it)
def test_only_marked_reads_outside_a_transaction_go_to_the_replica(transactional_db: Any) -> None:
    router = replica.ReplicaRouter()

    assert replica.read_alias() == "default"  # unmarked: the primary
    with replica.lagging_reads():
        assert replica.read_alias() == "replica"
        assert router.db_for_read(User) == "replica"
        assert router.db_for_write(User) == "default"  # a write never
        with transaction.atomic():  # inside a transaction: it must see its own writes
            assert replica.read_alias() == "default"
            assert router.db_for_read(User) is None
    with replica.lagging_reads(when=False):
        assert replica.read_alias() == "default"
    assert router.allow_migrate("replica", "games") is False


@pytest.mark.parametrize("url", ["", "postgres://u@replica.example:5432/uno"])
def test_the_replica_and_its_router_come_from_database_replica_url(url: str) -> None:
    code = (
        "import json; from django.conf import settings; "
        "print(json.dumps([sorted(settings.DATABASES), settings.DATABASE_ROUTERS, "
        "settings.DATABASES.get('replica', {}).get('HOST'), "
        "settings.DATABASES.get('replica', {}).get('TEST', {}).get('MIRROR')]))"
    )
    env = {
        **os.environ,
        "DATABASE_REPLICA_URL": url,
        "DJANGO_SETTINGS_MODULE": "unoservice.settings",
    }
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    aliases, routers, host, mirror = json.loads(run.stdout.splitlines()[-1])
    if url:
        assert aliases == ["default", "replica"] and host == "replica.example"
        assert routers == ["unoservice.replica.ReplicaRouter"] and mirror == "default"
    else:
        assert (aliases, routers, host) == (["default"], [], None)
