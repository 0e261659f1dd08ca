"""Deleting one's account from the profile (`Delete account`): a wrong password is told and
changes nothing; the right one, with the tick that says the person understands, deletes it: the
page signs out, the sign-in page says the account is deleted, and the name signs in no more. A
guest deletes without a password."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.support.players import PASSWORD
from tests.web.conftest import OpenPage
from tests.web.pages import register
from tests.web.site import Site


def test_a_player_deletes_the_account_from_the_profile(site: Site, open_page: OpenPage) -> None:
    page = open_page(site)
    register(page, "dora")
    page.get_by_role("link", name="dora").click()
    section = page.locator("section.delete-account")
    expect(section.get_by_role("heading", name="Delete account")).to_be_visible()

    section.get_by_label("Password").fill("not my password")
    section.get_by_label("I understand that this cannot be undone.").check()
    section.get_by_role("button", name="Delete my account").click()
    expect(section.get_by_role("alert")).to_have_text("The password is wrong.")
    assert site.token("dora")  # still an account

    section.get_by_label("Password").fill(PASSWORD)
    section.get_by_role("button", name="Delete my account").click()

    expect(page.locator("form.auth [role=status]")).to_have_text("Your account is deleted.")
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    expect(page.get_by_role("banner").get_by_role("button", name="Sign out")).to_have_count(0)
    body = {"username": "dora", "password": PASSWORD}
    site.api("POST", "/api/v1/auth/token/", body=body, status=400)
    page.reload()  # said once
    expect(page.get_by_text("Your account is deleted.")).to_have_count(0)


def test_a_guest_deletes_without_a_password(site: Site, open_page: OpenPage) -> None:
    page = open_page(site)
    page.goto("/#/login")
    page.get_by_role("button", name="Play as guest").click()
    header = page.get_by_role("banner")
    expect(header.get_by_role("button", name="Sign out")).to_be_visible()
    header.get_by_role("link", name="guest-", exact=False).first.click()
    section = page.locator("section.delete-account")
    expect(section.get_by_label("Password")).to_have_count(0)
    expect(page.locator("section.password")).to_have_count(0)  # no password to change

    section.get_by_label("I understand that this cannot be undone.").check()
    section.get_by_role("button", name="Delete my account").click()

    expect(page.locator("form.auth [role=status]")).to_have_text("Your account is deleted.")
