"""An account mail goes out through a real Celery worker on the real broker, and is lost neither
to an SMTP server that cannot be reached (the beat's sweep sends it again once it is back) nor to
a broker that is down when it is asked for (the mail waits as a row; the sweep sends it)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from celery.signals import before_task_publish
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from pytest_django.fixtures import Settings
from rest_framework.test import APIClient

from players.mail import SEND_TASK
from players.models import AccountMail
from tests.support.mail import running_mailbox, shapes_of
from tests.support.notifications import database_url_of_tests, start_workers, wait_for
from tests.support.players import PASSWORD
from tests.support.streams import Server, free_port, start_server, stop_server
from tests.support.table import ok

pytestmark = pytest.mark.django_db(transaction=True)

RESET = "/api/v1/auth/password-reset/"
PUBLIC_URL = "https://uno.example.com"


@pytest.fixture
def mail_env(worker_env: dict[str, str]) -> dict[str, str]:
    """A worker's environment: the links' origin, a second's retry delay, a quick sweep."""
    return {
        **worker_env,
        "UNO_PUBLIC_URL": PUBLIC_URL,
        "UNO_MAIL_RETRY_SECONDS": "1",
        "UNO_SWEEP_INTERVAL": "0.5",
    }


def test_a_reset_mail_waits_for_the_smtp_server_and_then_arrives(
    mail_env: dict[str, str], tmp_path: Path, settings: Settings
) -> None:
    settings.UNO_PUBLIC_URL = PUBLIC_URL  # the request's, which makes the link
    User.objects.create_user("ana", password=PASSWORD, email="ana@example.com")
    port = free_port()  # nothing listens there yet
    env = {**mail_env, "EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(port)}
    workers = start_workers(1, env, tmp_path, beat=True)
    try:
        ok(APIClient().post(RESET, {"email": "ana@example.com"}, format="json"), 202)
        wait_for(lambda: AccountMail.objects.filter(attempts__gte=2).exists(), what="retries")
        with running_mailbox(port) as mailbox:
            mail = mailbox.wait_for("ana@example.com")
            assert mail.link_in("reset").startswith(f"{PUBLIC_URL}/#/reset/")
            wait_for(lambda: not AccountMail.objects.exists(), what="the sent mail's row to go")
            assert len(mailbox.to("ana@example.com")) == 1
    finally:
        workers.stop()
    log = workers.logs[0].read_text()
    assert "not sent (ConnectionRefusedError): again in 1 s" in log
    assert "ana@example.com" not in log  # the worker's log names the player, not the address
    assert mail.token_in("reset") not in log


def test_the_worker_looks_a_reset_up_and_the_request_does_the_same_work_for_every_address(
    mail_env: dict[str, str], tmp_path: Path, settings: Settings
) -> None:
    """Whether an address has an account is found by the worker: the request does the same
    work for an address of an account and for one of nobody's (the same SQL, one task handed,
    counted as it is published, not timed), and only the account's address is mailed."""
    settings.UNO_PUBLIC_URL = PUBLIC_URL
    User.objects.create_user("ana", password=PASSWORD, email="ana@example.com")
    published: list[tuple[Any, int]] = []

    def count(sender: Any = None, body: Any = None, **_: Any) -> None:
        published.append((sender, len(body[0])))  # (task, how many arguments)

    def ask(address: str) -> tuple[list[str], list[tuple[Any, int]]]:
        published.clear()
        with CaptureQueriesContext(connection) as queries:
            answer = APIClient().post(RESET, {"email": address}, format="json")
        assert (answer.status_code, answer.json()) == (202, {})
        return shapes_of(queries.captured_queries), list(published)

    with running_mailbox() as mailbox:
        workers = start_workers(1, {**mail_env, **mailbox.env}, tmp_path)
        before_task_publish.connect(count, weak=False)
        try:
            known = ask("ana@example.com")
            unknown = ask("nobody@example.com")
            mail = mailbox.wait_for("ana@example.com")
            wait_for(lambda: not AccountMail.objects.exists(), what="both resets to be done")
        finally:
            before_task_publish.disconnect(count)
            workers.stop()
        assert mailbox.to("nobody@example.com") == []

    assert known == unknown
    assert known[1] == [(SEND_TASK, 1)]
    assert mail.link_in("reset").startswith(f"{PUBLIC_URL}/#/reset/")
    log = workers.logs[0].read_text()
    assert "1 account mail(s)" in log and "0 account mail(s)" in log
    assert "nobody@example.com" not in log


@pytest.fixture
def server_without_broker(mail_env: dict[str, str], tmp_path: Path) -> Iterator[Server]:
    """The web process with a broker that does not answer (nothing listens on its port)."""
    env = {
        "CELERY_BROKER_URL": f"redis://127.0.0.1:{free_port()}/0",
        "UNO_PUBLIC_URL": PUBLIC_URL,
        "UNO_MAIL_RETRY_SECONDS": "1",
        "UNO_THROTTLE_MAILS": "off",
    }
    server = start_server(database_url_of_tests(), free_port(), tmp_path / "web.log", 15.0, env)
    try:
        yield server
    finally:
        stop_server(server)


def test_a_mail_asked_for_while_the_broker_is_down_is_sent_by_the_sweep(
    server_without_broker: Server, mail_env: dict[str, str], tmp_path: Path
) -> None:
    User.objects.create_user("ana", password=PASSWORD, email="ana@example.com")
    status, body = server_without_broker.request("POST", RESET, body={"email": "ana@example.com"})
    assert (status, body) == (202, {})
    # The reset asked waits in the table, not in the broker: the address, no account yet (the
    # worker looks it up).
    kept = AccountMail.objects.get()
    assert (kept.kind, kept.attempts, kept.player_id) == ("reset_asked", 0, None)
    assert "the sweep sends it" in server_without_broker.log.read_text()

    with running_mailbox() as mailbox:
        env = {**mail_env, **mailbox.env}
        workers = start_workers(1, env, tmp_path, beat=True)
        try:
            mail = mailbox.wait_for("ana@example.com")
            assert mail.subject == "Choose a new password for UNO"
            wait_for(lambda: not AccountMail.objects.exists(), what="the sent mail's row to go")
        finally:
            workers.stop()
    new_password = {"token": mail.token_in("reset"), "new_password": "staple-lantern-orbit-4"}
    ok(APIClient().post("/api/v1/auth/password-reset/confirm/", new_password, format="json"))
