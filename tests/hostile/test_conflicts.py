"""A request that PostgreSQL rolls back because a concurrent write met it (SQLSTATE class 40: a
deadlock, a serialization failure) answers 503 ``conflict_retry`` with ``Retry-After``, not
``unavailable`` ("cannot reach its database"): the database answered, nothing of the request was
written, and the same request sent again goes through.

Each conflict is a real one, made deterministic: another transaction (a thread with its own
connection) takes a row the request will need, waits until PostgreSQL shows the request waiting
for it, then closes the conflict (takes a row the request holds: a deadlock; or commits a change
to the row the request waits on, under REPEATABLE READ: a serialization failure). The request is
a guest claiming its account, which locks the guest's row, then writes the user's.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import OperationalError, connection, transaction
from django.db.models import F
from django.db.utils import ConnectionHandler
from pytest_django.plugin import DjangoDbBlocker
from rest_framework.test import APIClient

from players.models import Guest
from tests.support.players import PASSWORD, client_with
from unoservice.errors import exception_handler

CLAIM = "/api/v1/players/me/claim/"
ME = "/api/v1/players/me/"
WAIT = 30.0  # seconds: how long the request may take to reach the lock it waits on


@pytest.fixture
def guest(transactional_db: None) -> Iterator[tuple[int, APIClient]]:
    """A guest and its client, on PostgreSQL, every write committed (two connections meet)."""
    if connection.vendor != "postgresql":
        pytest.skip("the conflicts are PostgreSQL's")
    answer = APIClient().post("/api/v1/players/guest/")
    assert answer.status_code == 201, answer.content
    yield answer.json()["id"], client_with(answer.json()["access"])
    connection.close()  # the session's settings (an isolation level) go with it


def _request_waits_for_a_lock() -> bool:
    """A session of the test database waits for a lock (pg_locks shows the whole server's: a
    lock another test run waits for says nothing of this request)."""
    with connection.cursor() as cursor:
        # pg_stat_activity is read once a transaction, and this polls inside one: read it again.
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_locks WHERE NOT granted"
            " AND pid IN (SELECT pid FROM pg_stat_activity WHERE datname = current_database())"
        )
        (waiting,) = cursor.fetchone()
    return bool(waiting)


def _meanwhile(first: Callable[[], Any], then: Callable[[], Any]) -> Future[None]:
    """In another transaction, on another connection: ``first``; once the request waits for a
    lock, ``then``; commit. The returned future is running once ``first`` is done."""
    started = threading.Event()

    def other() -> None:
        try:
            with transaction.atomic():
                first()
                started.set()
                deadline = time.monotonic() + WAIT
                while not _request_waits_for_a_lock():
                    assert time.monotonic() < deadline, "the request never waited for the lock"
                    time.sleep(0.01)
                then()
        finally:
            started.set()
            connection.close()

    pool = ThreadPoolExecutor(1)
    future = pool.submit(other)
    pool.shutdown(wait=False)  # its one thread ends with ``other``
    assert started.wait(WAIT)
    return future


def _claim(client: APIClient) -> Any:
    return client.post(CLAIM, {"username": "carla", "password": PASSWORD}, format="json")


def _assert_conflict_retry(answer: Any, user_id: int, caplog: pytest.LogCaptureFixture) -> str:
    """The answer and the log of a conflict; the warning's message."""
    assert answer.status_code == 503, answer.content
    body = answer.json()
    assert body["code"] == "conflict_retry"
    assert "nothing was done" in body["detail"] and "send it again" in body["detail"]
    assert "cannot reach" not in body["detail"]
    assert answer["Retry-After"] == "1"
    # Nothing of the claim was written: still the guest, with its generated name.
    user = User.objects.get(pk=user_id)
    assert user.username.startswith("guest-") and not user.has_usable_password()
    assert Guest.objects.filter(user_id=user_id).exists()
    # One WARNING that says what happened; nothing at ERROR.
    warned = [r for r in caplog.records if r.name == "unoservice.errors"]
    assert [r.levelno for r in warned] == [logging.WARNING]
    assert "concurrent write" in warned[0].getMessage()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    return warned[0].getMessage()


def test_a_deadlock_answers_conflict_retry_and_the_retry_goes_through(
    guest: tuple[int, APIClient], caplog: pytest.LogCaptureFixture
) -> None:
    user_id, client = guest
    other = _meanwhile(
        # The user's row first (the claim's second write) ...
        lambda: User.objects.filter(pk=user_id).update(is_active=True),
        # ... then, the request holding the guest's row and waiting for the user's, the guest's.
        lambda: list(Guest.objects.select_for_update().filter(user_id=user_id)),
    )

    with caplog.at_level(logging.WARNING):
        answer = _claim(client)
    other.result(timeout=WAIT)  # PostgreSQL broke the deadlock by ending the request's side

    assert "40P01" in _assert_conflict_retry(answer, user_id, caplog)
    again = _claim(client)
    assert again.status_code == 200, again.content
    assert client.get(ME).json()["username"] == "carla"


def test_a_serialization_failure_answers_conflict_retry(
    guest: tuple[int, APIClient], caplog: pytest.LogCaptureFixture
) -> None:
    user_id, client = guest
    # The request's transaction sees the database as it was when it began (REPEATABLE READ), so
    # a row changed since by a transaction that committed cannot be locked by it.
    with connection.cursor() as cursor:
        cursor.execute("SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL REPEATABLE READ")
    other = _meanwhile(
        lambda: Guest.objects.filter(user_id=user_id).update(created_at=F("created_at")),
        lambda: None,  # commits the change while the request waits to lock the guest's row
    )

    with caplog.at_level(logging.WARNING):
        answer = _claim(client)
    other.result(timeout=WAIT)

    assert "40001" in _assert_conflict_retry(answer, user_id, caplog)


def test_sqlites_database_is_locked_is_a_conflict_too(
    tmp_path: Path, django_db_blocker: DjangoDbBlocker
) -> None:
    """``make run``'s SQLite: a writer that waited its timeout out for another one gets
    "database is locked", a conflict as well, not an outage."""
    name = str(tmp_path / "db.sqlite3")
    sqlite = {"ENGINE": "django.db.backends.sqlite3", "NAME": name, "OPTIONS": {"timeout": 0}}
    databases = ConnectionHandler({"default": sqlite, "waiter": dict(sqlite)})
    with django_db_blocker.unblock():
        holder, waiter = databases["default"], databases["waiter"]
        try:
            holder.cursor().execute("BEGIN IMMEDIATE")  # the one writer, until it ends
            with pytest.raises(OperationalError) as raised:
                waiter.cursor().execute("BEGIN IMMEDIATE")
        finally:
            databases.close_all()

    answer = exception_handler(raised.value, {})

    assert answer is not None
    assert (answer.status_code, answer.data["code"]) == (503, "conflict_retry")
    assert answer["Retry-After"] == "1"


def test_a_database_that_does_not_answer_is_still_unavailable(
    django_db_blocker: DjangoDbBlocker,
) -> None:
    """A real connection failure (nothing listens on the port) keeps its own answer."""
    if connection.vendor != "postgresql":
        pytest.skip("the failure is PostgreSQL's driver's")
    closed = {**connection.settings_dict, "HOST": "127.0.0.1", "PORT": "9"}
    closed["OPTIONS"] = {**closed.get("OPTIONS", {}), "connect_timeout": 2}
    databases = ConnectionHandler({"default": closed})
    with django_db_blocker.unblock(), pytest.raises(OperationalError) as raised:
        databases["default"].ensure_connection()

    answer = exception_handler(raised.value, {})

    assert answer is not None
    assert (answer.status_code, answer.data["code"]) == (503, "unavailable")
    assert answer["Retry-After"] == "1"
