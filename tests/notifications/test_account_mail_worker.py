"""An account mail goes out through a real Celery worker on the real broker, and a worker tries
again while the SMTP server cannot be reached: the mail arrives once it is back."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from pytest_django.fixtures import Settings
from rest_framework.test import APIClient

from tests.support.mail import running_mailbox
from tests.support.notifications import start_workers, wait_for
from tests.support.players import PASSWORD
from tests.support.streams import free_port
from tests.support.table import ok

pytestmark = pytest.mark.django_db(transaction=True)

RESET = "/api/v1/auth/password-reset/"


def test_a_reset_mail_waits_for_the_smtp_server_and_then_arrives(
    worker_env: dict[str, str], tmp_path: Path, settings: Settings
) -> None:
    settings.UNO_PUBLIC_URL = "https://uno.example.com"  # the request's, which makes the link
    User.objects.create_user("ana", password=PASSWORD, email="ana@example.com")
    port = free_port()  # nothing listens there yet
    env = {
        **worker_env,
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(port),
        "UNO_MAIL_RETRY_SECONDS": "1",
    }
    workers = start_workers(1, env, tmp_path)
    try:
        ok(APIClient().post(RESET, {"email": "ana@example.com"}, format="json"), 202)
        wait_for(lambda: "Retry in" in workers.logs[0].read_text(), what="a retry")
        with running_mailbox(port) as mailbox:
            mail = mailbox.wait_for("ana@example.com")
            assert mail.link_in("reset").startswith("https://uno.example.com/#/reset/")
    finally:
        workers.stop()
    log = workers.logs[0].read_text()
    assert "ana@example.com" not in log  # the worker's log names the player, not the address
    assert mail.token_in("reset") not in log
