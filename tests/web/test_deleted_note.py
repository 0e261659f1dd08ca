"""The sign-in page's note after deleting one's account (`Your account is deleted.`) is said once
per deletion, but for as long as the person stays on that page: a language switch draws the page
again and says it again, in the new language (`A sua conta foi eliminada.`); leaving the page
(here for `Register`) ends it, so the sign-in page shown again has it no more."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.support.players import PASSWORD
from tests.web.conftest import OpenPage
from tests.web.pages import register
from tests.web.site import Site

ENGLISH = "Your account is deleted."
PORTUGUESE = "A sua conta foi eliminada."


def delete_account(page: Page, username: str) -> None:
    """``username``, signed in, deletes the account from the profile: the sign-in page follows."""
    page.get_by_role("link", name=username, exact=True).click()
    section = page.locator("section.delete-account")
    section.get_by_label("Password").fill(PASSWORD)
    section.get_by_label("I understand that this cannot be undone.").check()
    section.get_by_role("button", name="Delete my account").click()
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()


def test_the_note_stays_across_language_switches_and_goes_once_the_page_is_left(
    site: Site, open_page: OpenPage
) -> None:
    page = open_page(site)
    register(page, "dora")
    delete_account(page, "dora")
    note = page.locator("form.auth [role=status]")
    expect(note).to_have_text(ENGLISH)

    page.get_by_role("button", name="Português").click()
    expect(page.get_by_role("heading", name="Entrar")).to_be_visible()
    expect(note).to_have_text(PORTUGUESE)

    page.get_by_role("button", name="English").click()
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    expect(note).to_have_text(ENGLISH)

    page.locator("form.auth").get_by_role("link", name="Register", exact=True).click()
    expect(page.get_by_role("heading", name="Register")).to_be_visible()
    expect(page.get_by_text(ENGLISH)).to_have_count(0)

    page.locator("form.auth").get_by_role("link", name="Sign in", exact=True).click()
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    expect(page.get_by_text(ENGLISH)).to_have_count(0)
    page.get_by_role("button", name="Português").click()
    expect(page.get_by_role("heading", name="Entrar")).to_be_visible()
    expect(page.get_by_text(PORTUGUESE)).to_have_count(0)
