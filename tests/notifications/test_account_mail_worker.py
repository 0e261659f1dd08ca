"""An account mail goes out through a real Celery worker on the real broker, and is lost neither
to an SMTP server that cannot be reached (the beat's sweep sends it again once it is back) nor to
a broker that is down when it is asked for (the mail waits as a row; the sweep sends it)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from pytest_django.fixtures import Settings
from rest_framework.test import APIClient

from players.models import AccountMail
from tests.support.mail import running_mailbox
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
    kept = AccountMail.objects.get()  # the mail waits in the table, not in the broker
    assert (kept.kind, kept.attempts) == ("reset_password", 0)
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
