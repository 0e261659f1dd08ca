"""The table chat in two browsers: a message and a reaction reach the other seat, a link is shown
as text (no `a`), a refusal shows in the chat's role="alert", muting hides new messages, and the
replay shows the chat up to its position; a spectator chats where the host's create form let
spectators chat; a refusal is in the reader's language. Screenshots of the table with its chat."""

from __future__ import annotations

import re
from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Locator, Page, expect

from players.models import ChatSilence
from tests.web import screens, scripted
from tests.web.conftest import OpenPage
from tests.web.pages import at_version, open_lobby, open_table, register, sign_in
from tests.web.site import GAMES, Site

EVIL = "see https://evil.example now"


def chat(page: Page) -> Locator:
    return page.locator("[data-region=chat]")


def lines(page: Page) -> Locator:
    return page.locator("[data-region=chat] li[data-chat-id]")


def send(page: Page, text: str) -> None:
    page.get_by_label("Message", exact=True).fill(text)
    page.locator("[data-region=chat]").get_by_role("button", name="Send", exact=True).click()


def send_ok(page: Page, text: str) -> None:
    """Send, and wait until the message was taken (the input empties)."""
    send(page, text)
    expect(page.get_by_label("Message", exact=True)).to_have_value("")


def test_two_players_chat_a_reaction_shows_links_stay_text_and_mute_hides(
    site: Site, open_page: OpenPage
) -> None:
    ana, bea = open_page(site), open_page(site)
    register(ana, "ana")
    register(bea, "bea")
    tokens = [site.token("ana"), site.token("bea")]
    game = site.api("POST", GAMES, tokens[0], {"max_players": 2, "target_score": 100_000}, 201)
    game_id = str(game["id"])
    site.api("POST", f"{GAMES}{game_id}/join/", tokens[1])
    for page in (ana, bea):
        open_table(page, game_id)
        expect(page.locator("[data-region=chat]")).to_be_visible()

    send(ana, EVIL)
    for page in (ana, bea):
        line = page.locator("[data-region=chat] li[data-chat-id]").filter(has_text=EVIL)
        expect(line).to_have_count(1)
        expect(line).to_contain_text("ana")  # the author
        expect(page.locator("[data-region=chat] a")).to_have_count(0)
    expect(ana.get_by_label("Message", exact=True)).to_have_value("")

    bea.locator("[data-region=chat]").get_by_role(
        "button", name="Well played (reaction)", exact=True
    ).click()
    for page in (ana, bea):
        expect(page.locator('[data-region=chat] li [data-reaction="well_played"]')).to_have_text(
            "Well played"
        )
    send(bea, "good luck, ana")
    expect(ana.locator("[data-region=chat] li[data-chat-id]")).to_have_count(3)
    at_version(ana, site.view(game_id, tokens[0])["version"])
    screens.take(ana, "table-chat")

    # Six messages within 10 s: the sixth is refused, and says so in the chat's alert.
    for n in range(4):  # Ana's 2nd to 5th
        send_ok(ana, f"quick {n}")
    expect(ana.locator("[data-region=chat] li[data-chat-id]")).to_have_count(7)
    send(ana, "one too many")
    expect(ana.locator("#chat-alert")).to_contain_text("wait")
    expect(ana.locator("[data-region=chat] li[data-chat-id]")).to_have_count(7)

    # Bea mutes the chat: the lines go, and what Ana says next does not come.
    bea.locator("[data-region=chat]").get_by_role("button", name="Mute chat", exact=True).click()
    expect(bea.get_by_role("button", name="Unmute chat", exact=True)).to_be_visible()
    expect(bea.locator("[data-region=chat] li[data-chat-id]")).to_have_count(0)
    said = site.api("POST", f"{GAMES}{game_id}/chat/", tokens[1], {"text": "bea talks"}, 201)
    assert said["text"] == "bea talks"
    # A move after the message: once Bea's table shows it, the chat frame (sent before) was
    # filtered out rather than still on its way.
    view = site.view(game_id, tokens[0])
    seat = view["round"]["current_seat"]
    mover = site.view(game_id, tokens[seat])
    moved = site.act(game_id, tokens[seat], mover["you"]["legal_actions"][0])
    at_version(bea, moved["version"])
    expect(bea.locator("[data-region=chat] li[data-chat-id]")).to_have_count(0)
    expect(
        ana.locator("[data-region=chat] li[data-chat-id]").filter(has_text="bea talks")
    ).to_have_count(1)

    bea.get_by_role("button", name="Unmute chat", exact=True).click()
    expect(bea.locator("[data-region=chat] li[data-chat-id]")).to_have_count(8)


def test_the_replay_shows_the_chat_up_to_its_position(site: Site, open_page: OpenPage) -> None:
    game, tokens = scripted.started(site)
    said: list[tuple[int, str]] = []  # (the version it was sent at, its text)
    for number, (seat, action) in enumerate(scripted.MOVES):
        if number in (0, 3):
            message = site.api(
                "POST", f"{GAMES}{game}/chat/", tokens[seat], {"text": f"m{number}"}, 201
            )
            said.append((message["version"], message["text"]))
        site.act(game, tokens[seat], action)
    last = site.view(game, tokens[0])["version"]
    assert said[0][0] < said[1][0] < last

    page = open_page(site)
    sign_in(page, "bea")
    page.goto(f"/#/replay/{game}")
    expect(page.locator(".replay")).to_have_attribute("data-at", "1")
    for at in (said[0][0], said[1][0] - 1, said[1][0], last):
        page.get_by_label("Position").fill(str(at))
        expect(page.locator(".replay")).to_have_attribute("data-at", str(at))
        shown = [text for version, text in said if version <= at]
        chat_lines = page.locator("[data-region=chat] li[data-chat-id]")
        expect(chat_lines).to_have_count(len(shown))
        for text in shown:
            expect(chat_lines.filter(has_text=text)).to_have_count(1)


def test_a_spectator_chats_where_the_create_form_let_spectators_chat(
    site: Site, open_page: OpenPage
) -> None:
    host, fan = open_page(site), open_page(site)
    register(host, "hana")
    register(fan, "fin")
    open_lobby(host)
    host.get_by_label("Players", exact=True).fill("2")
    host.get_by_label("Bots", exact=True).fill("1")  # a full table: it starts at once
    host.get_by_label("Spectators may chat", exact=True).check()
    host.get_by_role("button", name="Create game").click()
    expect(host).to_have_url(re.compile(r"#/game/[^/]+$"))
    game = host.url.rsplit("/", 1)[1]
    fan_token = site.token("fin")
    assert site.view(game, fan_token)["settings"]["spectator_chat"] is True

    open_table(fan, game)
    send(fan, "go hana!")

    line = lines(fan).filter(has_text="go hana!")
    expect(line).to_have_count(1)
    expect(line).to_contain_text("fin (watching)")
    expect(line).to_have_attribute("data-channel", "spectators")
    said = site.api("GET", f"{GAMES}{game}/chat/", fan_token)["messages"]
    assert [(m["text"], m["channel"], m["seat"]) for m in said] == [
        ("go hana!", "spectators", None)
    ]

    # Left unticked (the default), spectators only read: no message input.
    quiet = site.api("POST", GAMES, site.token("hana"), {"max_players": 2, "bots": ["basic"]}, 201)
    assert not quiet["settings"].get("spectator_chat")
    open_table(fan, str(quiet["id"]))
    expect(chat(fan)).to_be_visible()
    expect(fan.get_by_label("Message", exact=True)).to_have_count(0)


def test_a_refusal_shows_in_the_readers_language(site: Site, open_page: OpenPage) -> None:
    """Staff silenced Ana's chat: her message is refused (403 `chat_silenced`), and the chat's
    alert says so in Portuguese, not with the server's English `detail`."""
    page = open_page(site)
    register(page, "ana")
    game = site.api("POST", GAMES, site.token("ana"), {"max_players": 2, "bots": ["basic"]}, 201)
    ChatSilence.objects.create(
        player=User.objects.get(username="ana"), until=timezone.now() + timedelta(hours=1)
    )
    page.get_by_role("button", name="Português").click()
    open_table(page, str(game["id"]))

    page.get_by_label("Mensagem", exact=True).fill("olá")
    chat(page).get_by_role("button", name="Enviar", exact=True).click()

    expect(page.locator("#chat-alert")).to_contain_text("A sua conversa está silenciada até ")
    expect(lines(page)).to_have_count(0)


def test_a_wait_for_chatting_too_fast_goes_once_it_is_over(site: Site, open_page: OpenPage) -> None:
    """ "Too many messages: wait 8 s." stayed on screen to the end of the game."""
    page = open_page(site)
    register(page, "ana")
    game = site.api("POST", GAMES, site.token("ana"), {"max_players": 2, "bots": ["basic"]}, 201)
    open_table(page, str(game["id"]))
    for n in range(5):
        send_ok(page, f"hello {n}")

    send(page, "one too many")

    warning = page.locator("#chat-alert")
    expect(warning).to_contain_text("wait")
    expect(warning).to_have_text("", timeout=15_000)  # within the chat's window (10 s)
