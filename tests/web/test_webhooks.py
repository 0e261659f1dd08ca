"""`Webhooks` on the profile: a player adds one (its signing secret shown that once), a
notification of theirs reaches the receiver, the webhook's deliveries say so, and `Delete` takes
it away. A form that asks for no kind is refused in the reader's words. A webhook turned off is
turned on again."""

from __future__ import annotations

import json
from datetime import timedelta

from django.utils import timezone
from playwright.sync_api import expect

from notifications.models import Kind, Webhook
from tests.support.notifications import receiving
from tests.web.conftest import OpenPage
from tests.web.pages import register
from tests.web.site import Site
from tests.web.test_layout import shoot


def test_a_player_adds_a_webhook_sees_it_delivered_and_deletes_it(
    site: Site, open_page: OpenPage
) -> None:
    page = open_page(site)
    register(page, "wes")
    game = site.api("POST", "/api/v1/games/", site.token("wes"), {"max_players": 3}, status=201)
    page.get_by_role("link", name="wes").click()
    section = page.locator("section.webhooks-section")
    expect(section.get_by_role("heading", name="Webhooks")).to_be_visible()
    expect(section.locator("ul.webhooks")).to_have_text("No webhooks yet.")

    with receiving() as receiver:
        section.get_by_label("Address (URL)").fill(receiver.url)
        kinds = section.locator("details.kinds summary")
        expect(kinds).to_have_text("Notifications sent: Every kind")
        kinds.click()
        for box in section.get_by_role("checkbox").all():
            box.uncheck()
        section.get_by_role("button", name="Add webhook").click()
        # Said as a choice ("at least 1 items" read as a count of things sent).
        expect(section.get_by_role("alert")).to_have_text("Notifications sent: choose at least 1.")
        expect(section.locator("ul.webhooks")).to_have_text("No webhooks yet.")

        section.get_by_label("A player joined").check()
        expect(kinds).to_have_text(f"Notifications sent: 1 of {len(Kind.choices)} kinds")
        section.get_by_role("button", name="Add webhook").click()
        expect(section.get_by_role("status")).to_contain_text("shown only now")
        secret = section.locator("code.secret").inner_text()
        assert secret.startswith("whsec_")
        hook = section.locator("ul.webhooks > li")
        expect(hook.locator("code.url")).to_have_text(receiver.url)
        expect(hook).to_contain_text("Sent for: A player joined")

        bo = site.register("bo")
        site.api("POST", f"/api/v1/games/{game['id']}/join/", bo)
        (got,) = receiver.received(1)
        assert json.loads(got.body)["kind"] == "player_joined"
        assert "webhook-signature" in got.headers

    hook.get_by_role("button", name="Deliveries").click()
    delivery = hook.locator("ul.deliveries li")
    expect(delivery).to_have_attribute("data-status", "succeeded")
    expect(delivery).to_contain_text("attempt 1 · delivered, answered 200")

    hook.get_by_role("button", name="Delete").click()
    expect(section.get_by_role("status")).to_have_text("Webhook deleted.")
    expect(section.locator("ul.webhooks")).to_have_text("No webhooks yet.")
    assert site.api("GET", "/api/v1/webhooks/", site.token("wes")) == {"results": []}


def test_a_webhook_turned_off_is_turned_on_again(site: Site, open_page: OpenPage) -> None:
    """A webhook turned off after 3 days of failures could only be deleted and added again (a
    new secret for the program); `Turn on again` keeps it, secret and all."""
    page = open_page(site)
    register(page, "wes")
    made = site.api(
        "POST", "/api/v1/webhooks/", site.token("wes"), {"url": "http://127.0.0.1:9/hook"}, 201
    )
    Webhook.objects.filter(pk=made["id"]).update(
        disabled_at=timezone.now(), failing_since=timezone.now() - timedelta(days=3)
    )
    page.get_by_role("link", name="wes").click()
    section = page.locator("section.webhooks-section")
    hook = section.locator("ul.webhooks > li")
    expect(hook).to_contain_text("Turned off")
    hook.get_by_role("button", name="Turn on again").click()

    expect(section.get_by_role("status")).to_contain_text("Webhook on again")
    expect(hook).not_to_contain_text("Turned off")
    expect(hook.get_by_role("button", name="Turn on again")).to_have_count(0)
    (listed,) = site.api("GET", "/api/v1/webhooks/", site.token("wes"))["results"]
    assert listed["disabled_at"] is None
    assert Webhook.objects.get(pk=made["id"]).secret == made["secret"]
    page.get_by_role("button", name="Português").click()
    expect(section.get_by_role("heading", name="Webhooks")).to_be_visible()


def test_turning_on_again_or_deleting_keeps_the_keyboard_in_the_list(
    site: Site, open_page: OpenPage
) -> None:
    """`Turn on again` and `Delete` draw the list again: the focus fell to the top of the page.
    Turned on, it is on the same webhook's Deliveries; deleted, on the next one's Delete (the
    last one's, the list's end reached), then on the Webhooks heading when none is left."""
    page = open_page(site)
    register(page, "wes")
    token = site.token("wes")
    made = [
        site.api("POST", "/api/v1/webhooks/", token, {"url": f"http://127.0.0.1:9/{n}"}, 201)
        for n in ("one", "two", "three")
    ]
    Webhook.objects.filter(pk=made[0]["id"]).update(
        disabled_at=timezone.now(), failing_since=timezone.now() - timedelta(days=3)
    )
    page.get_by_role("link", name="wes").click()
    section = page.locator("section.webhooks-section")
    hooks = section.locator("ul.webhooks > li")
    expect(hooks).to_have_count(3)
    first = hooks.filter(has_text="/one")
    first.get_by_role("button", name="Turn on again").focus()
    page.keyboard.press("Enter")
    expect(section.get_by_role("status")).to_contain_text("Webhook on again")
    expect(first.get_by_role("button", name="Deliveries")).to_be_focused()

    hooks.nth(1).get_by_role("button", name="Delete").focus()
    page.keyboard.press("Enter")
    expect(hooks).to_have_count(2)
    expect(hooks.nth(1).get_by_role("button", name="Delete")).to_be_focused()  # the next
    shoot(page, "webhooks-deleted", "en")
    page.keyboard.press("Enter")
    expect(hooks).to_have_count(1)
    expect(hooks.first.get_by_role("button", name="Delete")).to_be_focused()  # the one before
    page.keyboard.press("Enter")
    expect(section.locator("ul.webhooks")).to_have_text("No webhooks yet.")
    expect(section.get_by_role("heading", name="Webhooks")).to_be_focused()
