"""An account's e-mail address and a forgotten password's reset (``players.recovery``), through
the API, the mails received by a real SMTP server on loopback (``tests.support.mail``): the
address is the account's only once the link mailed to it is opened; a reset is answered alike
for every address, goes to confirmed addresses only, works once, and signs every device out."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from pytest_django.fixtures import Settings
from rest_framework.test import APIClient

from players.mail import EMAIL_LINK_SECONDS
from players.models import AccountMail
from service.tasks import sweep
from tests.support.mail import Mailbox, running_mailbox, shapes_of
from tests.support.notifications import wait_for
from tests.support.players import PASSWORD, MakeUser, client_for, client_with
from tests.support.streams import free_port
from tests.support.table import ok, refused

# The mails go after the commit: every request commits, as in production.
pytestmark = pytest.mark.django_db(transaction=True)

ME = "/api/v1/players/me/"
EMAIL = "/api/v1/players/me/email/"
CONFIRM = "/api/v1/auth/email/confirm/"
RESET = "/api/v1/auth/password-reset/"
RESET_CONFIRM = "/api/v1/auth/password-reset/confirm/"
TOKEN = "/api/v1/auth/token/"
NEW_PASSWORD = "staple-lantern-orbit-4"


@pytest.fixture
def mailbox(settings: Settings) -> Iterator[Mailbox]:
    with running_mailbox() as box:
        for name, value in box.settings.items():
            setattr(settings, name, value)
        settings.UNO_PUBLIC_URL = "https://uno.example.com"
        yield box


def confirmed(user: User, address: str, box: Mailbox) -> None:
    """``user`` sets ``address`` and opens the link mailed to it."""
    client = client_for(user)
    before = len(box.to(address))
    ok(client.post(EMAIL, {"email": address, "password": PASSWORD}, format="json"), 202)
    token = box.wait_for(address, count=before + 1).token_in("email")
    ok(APIClient().post(CONFIRM, {"token": token}, format="json"))


def ask_reset(address: str, **extra: Any) -> Any:
    """Ask for a reset of ``address``'s accounts, and await what it hands on (no broker here: a
    thread of this process looks the address up and sends the mails, as under ``make run``):
    until no row waits for its first attempt."""
    answer = APIClient().post(RESET, {"email": address}, format="json", **extra)
    wait_for(lambda: not AccountMail.objects.filter(attempts=0).exists(), what="the reset")
    return answer


def sign_in(username: str, password: str) -> int:
    body = {"username": username, "password": password}
    return APIClient().post(TOKEN, body, format="json").status_code


# --- the address ---------------------------------------------------------------------------------


def test_an_address_is_the_accounts_once_its_link_is_opened(
    make_player: MakeUser, mailbox: Mailbox
) -> None:
    ana = make_player("ana")
    client = client_for(ana)
    body = {"email": "ana@example.com", "password": PASSWORD}
    assert ok(client.post(EMAIL, body, format="json"), 202) == {
        "email": "",
        "pending": "ana@example.com",
    }
    assert ok(client.get(ME))["email"] == ""  # not before the link is opened

    mail = mailbox.wait_for("ana@example.com")
    assert mail.subject == "Confirm your e-mail address for UNO"
    assert "Hello ana" in mail.text and "ana@example.com" in mail.text
    assert mail.link_in("email").startswith("https://uno.example.com/#/email/")

    answer = APIClient().post(CONFIRM, {"token": mail.token_in("email")}, format="json")
    assert ok(answer) == {"email": "ana@example.com", "username": "ana"}
    assert ok(client.get(ME))["email"] == "ana@example.com"
    again = APIClient().post(CONFIRM, {"token": mail.token_in("email")}, format="json")
    refused(again, 400, "link_invalid")  # the link works once


def test_an_address_is_only_its_owners_to_see(make_player: MakeUser, mailbox: Mailbox) -> None:
    ana, bo = make_player("ana"), make_player("bo")
    confirmed(ana, "ana@example.com", mailbox)
    profile = ok(client_for(bo).get(f"/api/v1/players/{ana.pk}/"))
    assert "email" not in profile and "ana@example.com" not in str(profile)


def test_the_last_address_confirmed_spends_the_other_links(
    make_player: MakeUser, mailbox: Mailbox
) -> None:
    ana = make_player("ana")
    client = client_for(ana)
    for address in ("first@example.com", "second@example.com"):
        ok(client.post(EMAIL, {"email": address, "password": PASSWORD}, format="json"), 202)
    first = mailbox.wait_for("first@example.com").token_in("email")
    second = mailbox.wait_for("second@example.com").token_in("email")
    assert "first@example.com" not in mailbox.wait_for("second@example.com").text

    ok(APIClient().post(CONFIRM, {"token": second}, format="json"))
    refused(APIClient().post(CONFIRM, {"token": first}, format="json"), 400, "link_invalid")
    assert User.objects.get(pk=ana.pk).email == "second@example.com"


def test_a_refused_change_mails_nothing_and_changes_nothing(
    make_player: MakeUser, mailbox: Mailbox
) -> None:
    ana = make_player("ana")
    confirmed(ana, "ana@example.com", mailbox)
    client = client_for(ana)
    wrong = {"email": "evil@example.com", "password": "not-the-password"}
    refused(client.post(EMAIL, wrong, format="json"), 400, "invalid_credentials")
    malformed = {"email": "not an address", "password": PASSWORD}
    body = refused(client.post(EMAIL, malformed, format="json"), 400, "invalid")
    assert "email" in body["fields"]
    unknown = {"email": "a@example.com", "password": PASSWORD, "language": "fr"}
    refused(client.post(EMAIL, unknown, format="json"), 400, "invalid")
    refused(APIClient().post(EMAIL, malformed, format="json"), 401, "not_authenticated")
    assert mailbox.to("evil@example.com") == [] and mailbox.to("a@example.com") == []
    assert User.objects.get(pk=ana.pk).email == "ana@example.com"


def test_a_guest_has_no_address(mailbox: Mailbox) -> None:
    guest = ok(APIClient().post("/api/v1/players/guest/"), 201)
    client = client_with(guest["access"])
    body = {"email": "guest@example.com", "password": ""}
    refused(client.post(EMAIL, body, format="json"), 409, "guest_account")
    assert mailbox.to("guest@example.com") == []


def test_an_address_removed_gets_no_reset(make_player: MakeUser, mailbox: Mailbox) -> None:
    ana = make_player("ana")
    confirmed(ana, "ana@example.com", mailbox)
    answer = client_for(ana).post(EMAIL, {"email": "", "password": PASSWORD}, format="json")
    assert ok(answer) == {"email": "", "pending": None}
    ok(ask_reset("ana@example.com"), 202)
    assert len(mailbox.to("ana@example.com")) == 1  # the confirmation only


def test_bad_and_expired_confirmation_links_are_refused(
    make_player: MakeUser, mailbox: Mailbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    ana = make_player("ana")
    client = client_for(ana)
    ok(client.post(EMAIL, {"email": "ana@example.com", "password": PASSWORD}, format="json"), 202)
    token = mailbox.wait_for("ana@example.com").token_in("email")
    for bad in ("", "nonsense", token[:-2] + "xx", token.replace(token[2], "A", 1)):
        answer = APIClient().post(CONFIRM, {"token": bad}, format="json")
        assert answer.status_code == 400 and answer.json()["code"] in {"invalid", "link_invalid"}
    later = time.time() + EMAIL_LINK_SECONDS + 60
    monkeypatch.setattr("django.core.signing.time.time", lambda: later)
    refused(APIClient().post(CONFIRM, {"token": token}, format="json"), 400, "link_invalid")
    assert User.objects.get(pk=ana.pk).email == ""


def test_the_mail_speaks_the_language_asked(make_player: MakeUser, mailbox: Mailbox) -> None:
    ana = make_player("ana")
    body = {"email": "ana@example.com", "password": PASSWORD, "language": "pt"}
    ok(client_for(ana).post(EMAIL, body, format="json"), 202)
    mail = mailbox.wait_for("ana@example.com")
    assert mail.subject == "Confirme o seu endereço de e-mail no UNO"
    assert "Olá ana" in mail.text


# --- the reset -----------------------------------------------------------------------------------


def test_a_forgotten_password_is_reset_by_its_link_once(
    make_player: MakeUser, mailbox: Mailbox
) -> None:
    ana = make_player("ana")
    confirmed(ana, "ana@example.com", mailbox)
    phone = client_for(ana)  # a device signed in before the reset
    ok(phone.get(ME))

    ok(ask_reset("ANA@example.com"), 202)
    mail = mailbox.wait_for("ana@example.com", count=2)
    assert mail.subject == "Choose a new password for UNO"
    token = mail.token_in("reset")
    assert mail.link_in("reset") == f"https://uno.example.com/#/reset/{token}"

    weak = APIClient().post(RESET_CONFIRM, {"token": token, "new_password": "123"}, format="json")
    assert "new_password" in refused(weak, 400, "invalid")["fields"]
    assert sign_in("ana", PASSWORD) == 200  # the refusal changed nothing; the link still works

    body = {"token": token, "new_password": NEW_PASSWORD}
    done = ok(APIClient().post(RESET_CONFIRM, body, format="json"))
    assert done["username"] == "ana" and done["sessions_ended"] >= 2
    refused(phone.get(ME), 401, "not_authenticated")  # every device is signed out
    assert sign_in("ana", PASSWORD) == 400
    assert sign_in("ana", NEW_PASSWORD) == 200
    again = {"token": token, "new_password": "another-password-77"}
    refused(APIClient().post(RESET_CONFIRM, again, format="json"), 400, "link_invalid")
    assert sign_in("ana", NEW_PASSWORD) == 200


def test_a_reset_is_answered_alike_for_every_address(
    make_player: MakeUser, mailbox: Mailbox
) -> None:
    ana, bo = make_player("ana"), make_player("bo")
    confirmed(ana, "ana@example.com", mailbox)
    # bo asked for this address but never opened the link: not his
    asked = {"email": "bo@example.com", "password": PASSWORD}
    ok(client_for(bo).post(EMAIL, asked, format="json"), 202)

    answers = [
        ask_reset(address)
        for address in ("ana@example.com", "bo@example.com", "nobody@example.com")
    ]
    assert {(a.status_code, a.content) for a in answers} == {(202, b"{}")}
    assert len(mailbox.to("ana@example.com")) == 2
    assert len(mailbox.to("bo@example.com")) == 1  # the confirmation only
    assert mailbox.to("nobody@example.com") == []


def statements(address: str) -> list[str]:
    """The SQL a reset's request for ``address`` runs in the request itself, its values blanked
    (the address, the time, the row's id): what it does, not with what."""
    with CaptureQueriesContext(connection) as queries:
        ok(APIClient().post(RESET, {"email": address}, format="json"), 202)
    shapes = shapes_of(queries.captured_queries)
    assert shapes, "the request ran no SQL at all?"
    return shapes


def test_a_reset_request_does_the_same_work_for_every_address(
    make_player: MakeUser, mailbox: Mailbox
) -> None:
    """Not only the answer: what the request does before it answers, which its time would
    show, is the same whether or not an account has the address. Counted, not timed."""
    ana = make_player("ana")
    confirmed(ana, "ana@example.com", mailbox)
    known = statements("ana@example.com")
    unknown = statements("nobody@example.com")
    wait_for(lambda: not AccountMail.objects.filter(attempts=0).exists(), what="the resets")

    assert known == unknown
    # What the worker (here a thread of its own) did with them: a mail for the account only.
    assert len(mailbox.to("ana@example.com")) == 2 and mailbox.to("nobody@example.com") == []


def test_a_reset_lifts_the_failed_sign_ins_limit_of_its_account(
    make_player: MakeUser, mailbox: Mailbox, settings: Settings
) -> None:
    """Someone failing to sign in as ana makes her name refuse sign-ins for the window; the
    link mailed to her address proves she is ana: after the reset she signs in at once."""
    ana = make_player("ana")
    confirmed(ana, "ana@example.com", mailbox)
    rates = {"signin_failures": "3/15m"}
    settings.UNO_THROTTLE_RATES = {**settings.UNO_THROTTLE_RATES, **rates}
    cache.clear()
    assert [sign_in("ana", f"guess-{i}") for i in range(4)] == [400, 400, 400, 429]
    assert sign_in("ana", PASSWORD) == 429

    ok(ask_reset("ana@example.com"), 202)
    token = mailbox.wait_for("ana@example.com", count=2).token_in("reset")
    body = {"token": token, "new_password": NEW_PASSWORD}
    ok(APIClient().post(RESET_CONFIRM, body, format="json"))
    assert sign_in("ana", NEW_PASSWORD) == 200
    # The guesser, failing again, is limited again.
    assert [sign_in("ana", f"guess-{i}") for i in range(4)] == [400, 400, 400, 429]
    cache.clear()


def test_each_account_of_an_address_gets_a_link_of_its_own(
    make_player: MakeUser, mailbox: Mailbox
) -> None:
    ana, bot = make_player("ana"), make_player("ana-bot")
    for user in (ana, bot):
        confirmed(user, "ana@example.com", mailbox)
    ok(ask_reset("ana@example.com"), 202)
    resets = [mail for mail in mailbox.to("ana@example.com") if "reset" in mail.text]
    assert sorted(mail.text.split(",")[0] for mail in resets) == ["Hello ana", "Hello ana-bot"]
    body = {"token": resets[0].token_in("reset"), "new_password": NEW_PASSWORD}
    name = ok(APIClient().post(RESET_CONFIRM, body, format="json"))["username"]
    other = "ana" if name == "ana-bot" else "ana-bot"
    assert sign_in(name, NEW_PASSWORD) == 200 and sign_in(other, PASSWORD) == 200


def test_a_deleted_account_gets_no_reset(make_player: MakeUser, mailbox: Mailbox) -> None:
    ana = make_player("ana")
    confirmed(ana, "ana@example.com", mailbox)
    client = client_for(ana)
    ok(client.post("/api/v1/players/me/delete/", {"password": PASSWORD}, format="json"), 204)
    ok(ask_reset("ana@example.com"), 202)
    assert len(mailbox.to("ana@example.com")) == 1


def test_a_reset_link_is_spent_by_a_password_change(
    make_player: MakeUser, mailbox: Mailbox
) -> None:
    ana = make_player("ana")
    confirmed(ana, "ana@example.com", mailbox)
    ok(ask_reset("ana@example.com"), 202)
    token = mailbox.wait_for("ana@example.com", count=2).token_in("reset")
    change = {"current_password": PASSWORD, "new_password": NEW_PASSWORD}
    ok(client_for(ana).post("/api/v1/players/me/password/", change, format="json"))
    body = {"token": token, "new_password": "another-password-77"}
    refused(APIClient().post(RESET_CONFIRM, body, format="json"), 400, "link_invalid")
    for bad in ("", "zz", "1-", "-abc", "99999999-abc-def"):
        body = {"token": bad, "new_password": NEW_PASSWORD}
        answer = APIClient().post(RESET_CONFIRM, body, format="json")
        assert answer.status_code == 400 and answer.json()["code"] in {"invalid", "link_invalid"}
    assert sign_in("ana", NEW_PASSWORD) == 200


def test_the_reset_links_go_to_the_host_the_request_named_without_a_public_url(
    make_player: MakeUser, mailbox: Mailbox, settings: Settings
) -> None:
    settings.UNO_PUBLIC_URL = ""
    settings.ALLOWED_HOSTS = ["play.example.org", "testserver"]
    ana = make_player("ana")
    confirmed(ana, "ana@example.com", mailbox)
    answer = ask_reset("ana@example.com", HTTP_HOST="play.example.org")
    ok(answer, 202)
    link = mailbox.wait_for("ana@example.com", count=2).link_in("reset")
    assert link.startswith("http://play.example.org/#/reset/")
    forged = ask_reset("ana@example.com", HTTP_HOST="evil.example.net")
    refused(forged, 400, "invalid")  # a link to a host of the caller's choosing: never
    assert len(mailbox.to("ana@example.com")) == 2


def test_an_address_given_at_registration_is_mailed_its_link(mailbox: Mailbox) -> None:
    body = {"username": "lia", "password": PASSWORD, "email": "lia@example.com", "language": "pt"}
    registered = ok(APIClient().post("/api/v1/players/", body, format="json"), 201)
    mail = mailbox.wait_for("lia@example.com")
    assert mail.subject == "Confirme o seu endereço de e-mail no UNO" and "Olá lia" in mail.text
    client = client_with(registered["access"])
    assert ok(client.get(ME))["email"] == ""
    ok(APIClient().post(CONFIRM, {"token": mail.token_in("email")}, format="json"))
    assert ok(client.get(ME))["email"] == "lia@example.com"


def test_a_registration_with_a_malformed_address_makes_no_account(mailbox: Mailbox) -> None:
    body = {"username": "lia", "password": PASSWORD, "email": "lia at example"}
    answer = APIClient().post("/api/v1/players/", body, format="json")
    assert "email" in refused(answer, 400, "invalid")["fields"]
    assert not User.objects.filter(username="lia").exists()
    plain = {"username": "lia", "password": PASSWORD}  # no address: no mail, as before
    ok(APIClient().post("/api/v1/players/", plain, format="json"), 201)
    assert mailbox.mails == []


# --- a mail is kept until it is sent --------------------------------------------------------------


def smtp_down(settings: Settings) -> None:
    settings.EMAIL_PORT = free_port()  # nothing listens there


def test_a_mail_the_smtp_server_could_not_take_is_sent_by_the_sweep_once_it_is_due(
    make_player: MakeUser, mailbox: Mailbox, settings: Settings
) -> None:
    ana = make_player("ana")
    confirmed(ana, "ana@example.com", mailbox)
    settings.UNO_MAIL_RETRY_SECONDS = 3600
    smtp_down(settings)
    ok(ask_reset("ana@example.com"), 202)
    kept = AccountMail.objects.get()
    assert (kept.kind, kept.attempts) == ("reset_password", 1)

    settings.EMAIL_PORT = mailbox.port  # back, but the next try is an hour away
    assert sweep.apply().get()["mailed"] == 0
    assert len(mailbox.to("ana@example.com")) == 1  # the confirmation only

    AccountMail.objects.update(due_at=timezone.now())  # an hour later
    assert sweep.apply().get()["mailed"] == 1
    reset = mailbox.wait_for("ana@example.com", count=2)
    assert reset.subject == "Choose a new password for UNO"
    assert not AccountMail.objects.exists()
    body = {"token": reset.token_in("reset"), "new_password": NEW_PASSWORD}
    ok(APIClient().post(RESET_CONFIRM, body, format="json"))
    assert sign_in("ana", NEW_PASSWORD) == 200


def test_a_recipient_refused_for_good_is_not_tried_again(
    make_player: MakeUser, mailbox: Mailbox, caplog: pytest.LogCaptureFixture
) -> None:
    ana = make_player("ana")
    mailbox.refused.add("gone@example.com")
    body = {"email": "gone@example.com", "password": PASSWORD}
    with caplog.at_level("INFO", logger="players.mail"):
        ok(client_for(ana).post(EMAIL, body, format="json"), 202)
    assert not AccountMail.objects.exists()
    assert mailbox.to("gone@example.com") == []
    ours = [r.getMessage() for r in caplog.records if not r.name.startswith("mail.log")]
    assert f"account mail confirm_email for player {ana.pk} given up: SMTPRecipientsRefused" in ours
    # SMTP's refusal quotes the address: none of the service's lines shows it (the SMTP
    # server's own, mail.log, is the receiver's)
    assert not [line for line in ours if "gone@example.com" in line]


def test_a_deleted_account_leaves_no_mail_to_send(
    make_player: MakeUser, mailbox: Mailbox, settings: Settings
) -> None:
    ana = make_player("ana")
    smtp_down(settings)
    body = {"email": "ana@example.com", "password": PASSWORD}
    ok(client_for(ana).post(EMAIL, body, format="json"), 202)
    assert AccountMail.objects.filter(player=ana).count() == 1
    ok(
        client_for(ana).post("/api/v1/players/me/delete/", {"password": PASSWORD}, format="json"),
        204,
    )
    assert not AccountMail.objects.exists()
    settings.EMAIL_PORT = mailbox.port
    AccountMail.objects.update(due_at=timezone.now())
    assert sweep.apply().get()["mailed"] == 0
    assert mailbox.to("ana@example.com") == []
