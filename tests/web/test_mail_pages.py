"""The account mails in the browser, received by a real SMTP server on loopback
(tests/support/mail.py): the profile's `E-mail address` adds an address, whose confirmation link
opened in the browser confirms it (and removes it again with the password); `Forgot your
password?` on the sign-in page mails a reset's link, which chooses a new password there (the
old one refused from then on), also from a browser signed in to that account, which it signs
out; a spent link is refused in the reader's words, Portuguese here."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.support.mail import Mailbox
from tests.support.players import PASSWORD
from tests.web.conftest import OpenPage
from tests.web.pages import register, sign_in, signed_in
from tests.web.site import Site

ME = "/api/v1/players/me/"
NEW_PASSWORD = "a fresh long password 7"


def with_address(site: Site, mailbox: Mailbox, username: str, address: str) -> str:
    """``username`` registered over the API with ``address`` confirmed; their token."""
    token = site.register(username)
    site.give_address(token, address, mailbox)
    return token


def sign_in_fails(page: Page, username: str, password: str) -> None:
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator("form.auth").get_by_role("alert")).to_have_text(
        "Wrong username or password."
    )


def test_a_player_adds_an_address_confirms_it_by_mail_and_removes_it(
    site: Site, open_page: OpenPage, mailbox: Mailbox
) -> None:
    page = open_page(site)
    register(page, "lia")
    page.get_by_role("link", name="lia").click()
    section = page.locator("section.email-section")
    expect(section.get_by_role("heading", name="E-mail address")).to_be_visible()
    expect(section).to_contain_text(
        "No address yet: add one to be able to reset a forgotten password."
    )
    form = section.locator("form.email-change")

    form.get_by_label("New address").fill("lia@example.com")
    form.get_by_label("Current password").fill("not my password")
    form.get_by_role("button", name="Send a confirmation link").click()
    expect(form.get_by_role("alert")).to_have_text("The password is wrong.")

    form.get_by_label("Current password").fill(PASSWORD)
    form.get_by_role("button", name="Send a confirmation link").click()
    expect(form.get_by_role("status")).to_have_text(
        "We sent a link to lia@example.com. Open it to confirm the address."
    )
    expect(form.locator("[role=alert]")).to_have_text("")
    expect(form.get_by_label("New address")).to_have_value("")
    mail = mailbox.wait_for("lia@example.com")
    assert mail.subject == "Confirm your e-mail address for UNO"
    link = mail.link_in("email")
    assert link.startswith(f"{site.url}/#/email/"), link
    token = site.token("lia")
    assert site.api("GET", ME, token)["email"] == ""  # not before its link is opened

    page.goto(link)

    said = page.locator("section.email-confirm").get_by_role("status")
    expect(said).to_have_text("Your address lia@example.com is confirmed.")
    assert site.api("GET", ME, token)["email"] == "lia@example.com"
    page.get_by_role("button", name="Português").click()  # drawn again: not asked twice
    expect(said).to_have_text("O seu endereço lia@example.com está confirmado.")
    page.get_by_role("button", name="English").click()
    page.get_by_role("link", name="Your profile").click()
    expect(section.locator("strong[data-email]")).to_have_text("lia@example.com")

    removal = section.locator("details.email-remove")
    removal.locator("summary").click()
    removal.get_by_label("Current password").fill(PASSWORD)
    removal.get_by_role("button", name="Remove", exact=True).click()
    expect(section.locator("p.email-removed")).to_have_text("The address is removed.")
    expect(section).to_contain_text("No address yet")
    expect(removal).to_be_hidden()
    assert site.api("GET", ME, token)["email"] == ""
    assert len(mailbox.to("lia@example.com")) == 1  # a removal mails nothing


def test_a_forgotten_password_is_reset_from_the_sign_in_page(
    site: Site, open_page: OpenPage, mailbox: Mailbox
) -> None:
    old = with_address(site, mailbox, "max", "max@example.com")
    page = open_page(site)
    page.goto("/#/login")
    page.get_by_role("link", name="Forgot your password?").click()
    expect(page.get_by_role("heading", name="Forgot your password?")).to_be_visible()
    sent = page.locator("main").get_by_role("status")
    address = page.get_by_label("E-mail address")

    # An address no account has: the same answer (no account's existence told), and no mail
    # (a request's mail is sent before its answer: the server has no broker here).
    address.fill("nobody@example.com")
    page.get_by_role("button", name="Send the link").click()
    expect(sent).to_have_text(
        "If an account has this confirmed address, we sent it a link to choose a new "
        "password. It works for 24 hours."
    )
    assert mailbox.to("nobody@example.com") == []
    address.fill("max@example.com")
    with page.expect_response("**/api/v1/auth/password-reset/"):
        page.get_by_role("button", name="Send the link").click()
    expect(sent).to_contain_text("If an account has this confirmed address")
    mail = mailbox.wait_for("max@example.com")
    assert mail.subject == "Choose a new password for UNO"

    page.goto(mail.link_in("reset"))
    expect(page.get_by_role("heading", name="Choose a new password")).to_be_visible()
    page.get_by_label("New password").fill("short")
    page.get_by_role("button", name="Save the password").click()
    expect(page.locator("main").get_by_role("alert")).to_have_text(
        "New password: too short (at least 8 characters)."
    )
    page.get_by_label("New password").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Save the password").click()

    expect(page.locator("main form.auth").get_by_role("status")).to_have_text(
        "The password of max is changed: sign in with the new one."
    )
    expect(page.get_by_label("Username")).to_have_value("max")
    site.api("GET", ME, old, status=401)  # every session of the account ended
    sign_in_fails(page, "max", PASSWORD)
    page.get_by_label("Password").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    signed_in(page, "max")


def test_a_reset_opened_signed_in_to_the_account_signs_this_browser_out(
    site: Site, open_page: OpenPage, mailbox: Mailbox
) -> None:
    """Signed in here as the account: the reset ends this session too, and the page says so on
    the sign-in page (not a sign-in page reached later through a refused call)."""
    with_address(site, mailbox, "ada", "ada@example.com")
    page = open_page(site)
    # The page's notifications' stream open first: the reset ends it, which the page survives.
    with page.expect_response(lambda answer: "/players/me/stream/" in answer.url):
        sign_in(page, "ada")
    site.api("POST", "/api/v1/auth/password-reset/", body={"email": "ada@example.com"}, status=202)
    link = mailbox.wait_for("ada@example.com").link_in("reset")
    token = str(page.evaluate("() => localStorage.getItem('uno.token')"))

    page.goto(link)
    page.get_by_label("New password").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Save the password").click()

    expect(page.locator("main form.auth").get_by_role("status")).to_have_text(
        "The password of ada is changed: sign in with the new one."
    )
    header = page.get_by_role("banner")
    expect(header.get_by_role("link", name="Sign in")).to_be_visible()
    assert page.evaluate("() => localStorage.getItem('uno.token')") is None
    site.api("GET", ME, token, status=401)
    page.get_by_label("Password").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    signed_in(page, "ada")
    expect(page.get_by_role("button", name="Create game")).to_be_visible()  # the lobby


def test_a_spent_link_is_refused_in_portuguese(
    site: Site, open_page: OpenPage, mailbox: Mailbox
) -> None:
    with_address(site, mailbox, "rui", "rui@example.com")
    page = open_page(site)
    page.goto("/#/login")
    page.get_by_role("button", name="Português").click()
    page.get_by_role("link", name="Esqueceu-se da palavra-passe?").click()
    page.get_by_label("Endereço de e-mail").fill("rui@example.com")
    page.get_by_role("button", name="Enviar a ligação").click()
    expect(page.locator("main").get_by_role("status")).to_contain_text(
        "Se uma conta tiver este endereço"
    )
    mail = mailbox.wait_for("rui@example.com")
    assert mail.subject == "Escolha uma nova palavra-passe no UNO"  # in the page's language
    link = mail.link_in("reset")
    done = {"token": mail.token_in("reset"), "new_password": NEW_PASSWORD}
    site.api("POST", "/api/v1/auth/password-reset/confirm/", body=done)  # spent elsewhere

    page.goto(link)
    expect(page.get_by_role("heading", name="Escolha uma nova palavra-passe")).to_be_visible()
    page.get_by_label("Nova palavra-passe").fill("another long password 8")
    page.get_by_role("button", name="Guardar a palavra-passe").click()

    expect(page.locator("main").get_by_role("alert")).to_have_text(
        "Esta ligação está mal formada, expirou (funciona durante 24 horas) ou já foi usada."
    )
    page.get_by_role("link", name="Pedir uma nova ligação").click()
    expect(page.get_by_role("heading", name="Esqueceu-se da palavra-passe?")).to_be_visible()

    page.goto("/#/email/not-a-token")
    expect(page.locator("section.email-confirm").get_by_role("alert")).to_have_text(
        "Esta ligação de confirmação está mal formada, expirou (funciona durante 3 dias) ou já "
        "foi usada: peça uma nova no seu perfil."
    )


def test_an_address_given_when_registering_in_portuguese_is_confirmed_by_its_link(
    site: Site, open_page: OpenPage, mailbox: Mailbox
) -> None:
    page = open_page(site)
    page.goto("/#/register")
    page.get_by_role("button", name="Português").click()
    page.get_by_label("Nome de utilizador").fill("rui")
    page.get_by_label("Palavra-passe").fill(PASSWORD)
    page.get_by_label("Endereço de e-mail (opcional)").fill("rui@example.com")
    page.get_by_role("button", name="Registar").click()
    expect(page.get_by_role("banner").get_by_role("link", name="rui", exact=True)).to_be_visible()

    mail = mailbox.wait_for("rui@example.com")
    assert mail.subject == "Confirme o seu endereço de e-mail no UNO"
    page.goto(mail.link_in("email"))
    said = page.locator("section.email-confirm").get_by_role("status")
    expect(said).to_have_text("O seu endereço rui@example.com está confirmado.")
    assert site.api("GET", ME, site.token("rui"))["email"] == "rui@example.com"
