"""The pages at phone width (375 px), in English and in Portuguese (whose words are longer), with
a player of a 32-character name in the games, challenges, tables and tournaments shown: no page
is wider than the screen and nothing runs out of its box (a long name breaks instead of running
under a button), the header's buttons and links are 44 px tall, side-by-side fields line their
controls up, stacked panels keep apart, the replay shows its seats in one column with Back and
Forward on one row, and the sessions list names the browser instead of its raw user agent.

With ``LAYOUT_SHOTS=<dir>`` in the environment, each checked screen is also saved there as a
picture at 375 px and 1280 px (``<screen>-<phone|desktop>-<en|pt>.png``) to look at."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.utils import timezone
from playwright.sync_api import Page, ViewportSize, expect

from games.models import Tournament
from tests.support.mail import Mailbox
from tests.support.players import PASSWORD
from tests.support.tournaments import body_of
from tests.web import scripted
from tests.web.conftest import OpenPage
from tests.web.pages import open_table, register, sign_in
from tests.web.site import GAMES, Site

LONG = "maximiliana_figueiredo_rodrigues"
assert len(LONG) == 32
PHONE: ViewportSize = {"width": 375, "height": 812}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
SWITCH = {"pt": "Português", "en": "English"}  # the header's button to that language
FOCUS = "rgb(255, 140, 0)"  # --focus: the keyboard focus ring's colour

# What is wider than it should be: the page itself, and any element of the page (outside the
# horizontal scrollers, `.scroll`, and the cards, whose tilted ovals are drawn past their box)
# whose content runs out of its box (a name under a button).
OVERFLOWING = """() => {
  const found = [];
  const page = document.documentElement;
  if (page.scrollWidth > innerWidth) found.push(`the page: ${page.scrollWidth} px > ${innerWidth}`);
  for (const el of document.querySelectorAll('#header *, main *')) {
    if (el.matches('input, select, textarea, .sr-only') || el.closest('.scroll, .card')) continue;
    const style = getComputedStyle(el);
    if (style.display === 'inline' || style.overflowX !== 'visible' || !el.clientWidth) continue;
    if (el.scrollWidth > el.clientWidth + 1) {
      found.push(`${el.tagName.toLowerCase()}.${[...el.classList].join('.')} ` +
        `"${el.textContent.trim().slice(0, 40)}": ${el.scrollWidth} px > ${el.clientWidth}`);
    }
  }
  return found;
}"""


def in_both_languages(
    page: Page, ready: Callable[[str], None], check: Callable[[str], None]
) -> None:
    """``ready(lang)`` (await the page drawn) then ``check(lang)``, in English and then in
    Portuguese (the header's switch, which draws the page again); English again after."""
    for lang in ("en", "pt"):
        if page.evaluate("() => document.documentElement.lang") != lang:
            switch(page, lang)
        ready(lang)
        check(lang)
    switch(page, "en")


def switch(page: Page, lang: str) -> None:
    """The header's language switch; awaited until the page is drawn afresh (a new root)."""
    page.evaluate("() => document.querySelector('main > .page')?.setAttribute('data-old', '')")
    page.get_by_role("button", name=SWITCH[lang], exact=True).click()
    expect(page.locator(f"html[lang={lang}]")).to_be_attached()
    expect(page.locator("main > .page:not([data-old])")).to_be_attached()


def assert_fits(page: Page, where: str) -> None:
    overflowing = page.evaluate(OVERFLOWING)
    assert not overflowing, (where, overflowing)


def shoot(page: Page, name: str, lang: str) -> None:
    """The screen at both widths, into ``$LAYOUT_SHOTS`` if set (to look at; nothing checked)."""
    folder = os.environ.get("LAYOUT_SHOTS")
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    for label, size in (("desktop", DESKTOP), ("phone", PHONE)):  # the phone's width last
        page.set_viewport_size(size)
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => done(null)))")
        path = Path(folder) / f"{name}-{label}-{lang}.png"
        page.screenshot(path=str(path), full_page=True, animations="disabled")


def phone(open_page: OpenPage, site: Site) -> Page:
    return open_page(site, width=PHONE["width"], height=PHONE["height"])


def seated_with_long(site: Site) -> tuple[str, list[str]]:
    """Ana (staff, seat 0) and the player of the long name at the scripted game for two, which
    has started with Ana to play: (its id, their tokens)."""
    tokens = [site.register("ana"), site.register(LONG)]
    tokens[0] = site.make_staff("ana")
    game = str(scripted.create(site, tokens[0])["id"])
    site.api("POST", f"{GAMES}{game}/join/", tokens[1])
    return game, tokens


def finished_with_long(site: Site) -> tuple[str, int]:
    """The scripted game of Ana and the long name, played through (both rated): (id, version)."""
    game, tokens = seated_with_long(site)
    return game, scripted.play_through(site, game, tokens)


def challenged_long(site: Site, token: str) -> None:
    body = {"to": LONG, "settings": {"turn_timeout": 86400}}
    site.api("POST", "/api/v1/challenges/", token, body, status=201)


# --- the lobby ----------------------------------------------------------------------------------

MISALIGNED_ROWS = """() => [...document.querySelectorAll('.row')]
  .filter((row) => row.offsetParent)
  .flatMap((row) => {
    const lines = new Map();  // each flex line (the fields' top) -> the bottoms of its controls
    for (const field of row.children) {
      const control = field.querySelector('input, select');
      if (!control) continue;
      const top = Math.round(field.getBoundingClientRect().top);
      const bottom = Math.round(control.getBoundingClientRect().bottom);
      lines.set(top, [...(lines.get(top) ?? []), bottom]);
    }
    return [...lines.values()].filter((bottoms) => Math.max(...bottoms) - Math.min(...bottoms) > 1)
      .map((bottoms) => `${row.textContent.trim().slice(0, 60)}: ${bottoms}`);
  })"""


def test_the_lobby_with_house_rules_open_and_a_long_name_fits_a_phone(
    site: Site, open_page: OpenPage
) -> None:
    game, _ = seated_with_long(site)
    page = phone(open_page, site)
    sign_in(page, "ana")
    page.goto("/#/")
    rules = {"en": "House rules", "pt": "Regras da casa"}

    def ready(lang: str) -> None:
        expect(page.locator(f'[data-game-id="{game}"]')).to_contain_text(LONG)
        page.get_by_text(rules[lang], exact=True).click()
        expect(page.locator("#rule-scoring")).to_be_visible()

    def check(lang: str) -> None:
        assert_fits(page, f"lobby, house rules open ({lang})")
        assert page.evaluate(MISALIGNED_ROWS) == [], lang
        shoot(page, "lobby-houserules", lang)

    in_both_languages(page, ready, check)


# --- the inbox and the table --------------------------------------------------------------------


def test_the_inbox_with_a_long_name_in_a_game_and_a_challenge_fits_a_phone(
    site: Site, open_page: OpenPage
) -> None:
    game, tokens = seated_with_long(site)
    challenged_long(site, tokens[0])
    page = phone(open_page, site)
    sign_in(page, "ana")
    page.goto("/#/inbox")

    def ready(lang: str) -> None:
        # (The notifications about the game carry its data-game-id too.)
        expect(page.locator(f'li.game-item[data-game-id="{game}"]')).to_contain_text(LONG)
        expect(page.locator("[data-challenge-id]")).to_contain_text(LONG)

    def check(lang: str) -> None:
        assert_fits(page, f"inbox ({lang})")
        shoot(page, "inbox", lang)

    in_both_languages(page, ready, check)


NAME_LINES = """(seat) => {
  const name = seat.querySelector('.seat-name a');
  const box = seat.getBoundingClientRect();
  const lines = [...name.getClientRects()];
  return {
    lines: new Set(lines.map((line) => Math.round(line.top))).size,
    inside: lines.every((line) => line.left >= box.left && line.right <= box.right),
  };
}"""


def test_a_table_seat_of_a_long_name_wraps_it_in_two_lines_on_a_phone(
    site: Site, open_page: OpenPage
) -> None:
    game, _ = seated_with_long(site)
    page = phone(open_page, site)
    sign_in(page, "ana")
    open_table(page, game)
    seat = page.locator("[data-region=seats] li[data-seat='1']")

    def ready(lang: str) -> None:
        expect(page.locator("[data-game-status=active]")).to_be_visible()
        expect(seat).to_contain_text(LONG)

    def check(lang: str) -> None:
        assert_fits(page, f"table ({lang})")
        # The two seats share the row: the name breaks once, inside its seat.
        assert seat.evaluate(NAME_LINES) == {"lines": 2, "inside": True}, lang
        shoot(page, "table-longname", lang)

    in_both_languages(page, ready, check)


# --- profiles, the leaderboard, the replay ------------------------------------------------------


def test_the_profile_of_a_long_name_fits_a_phone(site: Site, open_page: OpenPage) -> None:
    seated_with_long(site)
    page = phone(open_page, site)
    sign_in(page, "ana")
    page.goto(f"/#/players/{LONG}")

    def ready(lang: str) -> None:
        expect(page.locator(f"[data-player={LONG}] h1")).to_have_text(LONG)

    def check(lang: str) -> None:
        assert_fits(page, f"profile ({lang})")
        shoot(page, "profile-longname", lang)

    in_both_languages(page, ready, check)


def test_the_leaderboard_fits_a_phone(site: Site, open_page: OpenPage) -> None:
    finished_with_long(site)
    page = phone(open_page, site)
    sign_in(page, "ana")
    page.goto("/#/leaderboard")

    def ready(lang: str) -> None:
        expect(page.locator(f"tr[data-player={LONG}]")).to_be_visible()

    def check(lang: str) -> None:
        assert_fits(page, f"leaderboard ({lang})")
        # It fits: it scrolled sideways, the columns of games played and won out of sight.
        widths = page.locator(".scroll:has(table.leaderboard)").evaluate(TABLE_IN_SCROLLER)
        shoot(page, "leaderboard", lang)
        assert widths[0] <= widths[1], (lang, widths)

    in_both_languages(page, ready, check)


# The width of the table in a horizontal scroller, and the scroller's.
TABLE_IN_SCROLLER = "(el) => [el.scrollWidth, el.clientWidth]"


REPLAY_LAYOUT = """() => {
  const list = document.querySelector('[data-region=seats]').getBoundingClientRect();
  const seats = [...document.querySelectorAll('[data-region=seats] > li')]
    .map((li) => li.getBoundingClientRect());
  const top = (key) => Math.round(
    document.querySelector(`[data-key=${key}]`).getBoundingClientRect().top);
  return {
    one_column: seats.every(
      (seat) => Math.abs(seat.left - list.left) < 1 && seat.width > list.width - 1),
    back_and_forward_on_one_row: top('back') === top('forward'),
  };
}"""


def test_the_replay_shows_its_seats_in_one_column_on_a_phone(
    site: Site, open_page: OpenPage
) -> None:
    game, last = finished_with_long(site)
    page = phone(open_page, site)
    sign_in(page, "ana")
    page.goto(f"/#/replay/{game}")

    def ready(lang: str) -> None:
        expect(page.locator(".replay")).to_have_attribute("data-version", str(last))
        # Shown: at the first event, or (the page drawn again in the other language) where it was.
        expect(page.locator(".replay")).to_have_attribute("data-at", re.compile(r"^[1-9]\d*$"))
        # A moment with both hands full.
        page.locator("#replay-position").fill(str(last - 3))
        expect(page.locator(".replay")).to_have_attribute("data-at", str(last - 3))
        expect(page.locator("[data-region=seats] > li")).to_have_count(2)

    def check(lang: str) -> None:
        assert_fits(page, f"replay ({lang})")
        layout = page.evaluate(REPLAY_LAYOUT)
        assert layout == {"one_column": True, "back_and_forward_on_one_row": True}, lang
        shoot(page, "replay", lang)

    in_both_languages(page, ready, check)


# --- tournaments --------------------------------------------------------------------------------

PANELS_APART = """() => [...document.querySelectorAll('main .panel')].flatMap((panel) => {
  const next = panel.nextElementSibling;
  if (!next || !next.classList.contains('panel')) return [];
  const gap = next.getBoundingClientRect().top - panel.getBoundingClientRect().bottom;
  return gap < 8 ? [`${panel.textContent.trim().slice(0, 30)}: ${gap} px`] : [];
})"""
FONT_SIZE = "(el) => parseFloat(getComputedStyle(el).fontSize)"


def test_the_tournament_pages_fit_a_phone(site: Site, open_page: OpenPage) -> None:
    page = phone(open_page, site)
    register(page, "ana")
    tokens = {"ana": site.token("ana"), LONG: site.register(LONG)}
    body = body_of(
        name="Torneio de Primavera de Lisboa 2026 - edição especial",
        table_size=2,
        rounds=1,
        settings={"turn_timeout": 86400, "target_score": 200},
    )
    made = site.api("POST", "/api/v1/tournaments/", tokens["ana"], body, status=201)
    for token in tokens.values():
        site.api("POST", f"/api/v1/tournaments/{made['id']}/join/", token)

    # The list, and the form to create one.
    page.goto("/#/tournaments")
    create = {"en": "Create a tournament", "pt": "Criar um torneio"}

    def ready_list(lang: str) -> None:
        expect(page.locator(f"[data-tournament-id='{made['id']}']")).to_be_visible()
        expect(page.get_by_role("button", name=create[lang], exact=True)).to_be_visible()

    def check_list(lang: str) -> None:
        assert_fits(page, f"tournaments ({lang})")
        assert page.evaluate(PANELS_APART) == [], lang
        shoot(page, "tournaments", lang)

    in_both_languages(page, ready_list, check_list)

    # Its start comes; its page reads it again, which starts it: the first round's table.
    Tournament.objects.filter(pk=made["id"]).update(starts_at=timezone.now() - timedelta(seconds=1))
    page.goto(f"/#/tournaments/{made['id']}")

    def ready_one(lang: str) -> None:
        expect(page.locator("[data-round='1'] [data-game-id]")).to_contain_text(LONG)

    def check_one(lang: str) -> None:
        assert_fits(page, f"tournament ({lang})")
        assert page.evaluate(PANELS_APART) == [], lang
        # "Round 1" is no larger than the "Rounds" heading above it.
        rounds = page.locator("section:has([data-round]) > h2").evaluate(FONT_SIZE)
        assert page.locator("[data-round='1'] h3").evaluate(FONT_SIZE) <= rounds, lang
        shoot(page, "tournament-running", lang)

    in_both_languages(page, ready_one, check_one)


# --- the header ---------------------------------------------------------------------------------

TARGETS = """() => [...document.querySelectorAll('#header a, #header button')]
  .map((el) => [el.textContent.trim(), Math.round(el.getBoundingClientRect().height)])"""


def test_the_header_has_tap_targets_of_44_px_on_a_phone_and_pressed_is_not_focus(
    site: Site, open_page: OpenPage
) -> None:
    page = phone(open_page, site)
    register(page, "ana")
    toggle = {"en": "Colour-blind mode", "pt": "Modo daltónico"}

    def ready(lang: str) -> None:
        expect(page.get_by_role("button", name=toggle[lang], exact=True)).to_be_visible()

    def check(lang: str) -> None:
        small = [(name, height) for name, height in page.evaluate(TARGETS) if height < 44]
        assert not small, (lang, small)
        assert_fits(page, f"header ({lang})")

    in_both_languages(page, ready, check)

    # Pressed, the colour-blind toggle does not wear the focus ring's colour; focused from the
    # keyboard, it does.
    colour_blind = page.get_by_role("button", name=toggle["en"], exact=True)
    colour_blind.click()
    expect(colour_blind).to_have_attribute("aria-pressed", "true")
    page.evaluate("() => document.activeElement?.blur()")
    look = colour_blind.evaluate(
        "(el) => { const s = getComputedStyle(el); return [s.boxShadow, s.outlineStyle]; }"
    )
    assert FOCUS not in look[0] and look[1] == "none", look
    page.get_by_role("button", name=SWITCH["pt"], exact=True).focus()
    page.keyboard.press("Shift+Tab")
    expect(colour_blind).to_be_focused()
    ring = colour_blind.evaluate(
        "(el) => { const s = getComputedStyle(el); return [s.outlineStyle, s.outlineColor]; }"
    )
    assert ring == ["solid", FOCUS], ring
    shoot(page, "header-pressed-focused", "en")


ROWS = """() => new Set([...document.querySelectorAll('#header a, #header button')]
  .filter((el) => el.getClientRects().length)
  .map((el) => Math.round(el.getBoundingClientRect().top))).size"""


def test_the_header_takes_two_rows_at_most_on_a_phone(site: Site, open_page: OpenPage) -> None:
    """Signed in with an unread notification (the badge), the English header took three rows at
    375 px (the name wrapped alone), the 32-character name's in both languages: the name takes
    what the other links leave, cut short, and stays a link to the profile."""
    tokens = [site.register(LONG), site.register("bea")]
    challenged_long(site, tokens[1])
    page = phone(open_page, site)
    sign_in(page, LONG)
    page.goto("/#/leaderboard")
    header = page.get_by_role("banner")
    me = header.get_by_role("link", name=LONG, exact=True)

    def ready(lang: str) -> None:
        expect(header.locator("#unread")).to_have_text("1")
        expect(me).to_be_visible()

    def check(lang: str) -> None:
        assert page.evaluate(ROWS) <= 2, lang
        assert_fits(page, f"header ({lang})")
        assert me.evaluate("(el) => el.getBoundingClientRect().width") >= 30, lang
        shoot(page, "header-longname", lang)

    in_both_languages(page, ready, check)
    me.click()
    expect(page.locator(f"[data-player={LONG}] h1")).to_have_text(LONG)


# --- sessions -----------------------------------------------------------------------------------


def test_the_sessions_list_names_the_browser_not_its_user_agent(
    site: Site, open_page: OpenPage
) -> None:
    page = phone(open_page, site)
    register(page, "ana")
    site.token("ana")  # signed in elsewhere too, by a client that sends no user agent
    agent = str(page.evaluate("() => navigator.userAgent"))
    assert "Linux" in agent and "Chrome/" in agent, agent
    page.goto("/#/players/ana")
    current = page.locator("section.sessions li[data-current=true] strong")
    other = page.locator("section.sessions li[data-current=false] strong")
    words = {
        "en": ("Chrome on Linux", "Unknown device"),
        "pt": ("Chrome no Linux", "Dispositivo desconhecido"),
    }

    def ready(lang: str) -> None:
        expect(current).to_have_text(words[lang][0])

    def check(lang: str) -> None:
        expect(current).to_have_attribute("title", agent)  # the whole of it, on hovering
        expect(other).to_have_text(words[lang][1])
        assert_fits(page, f"sessions ({lang})")
        shoot(page, "profile-sessions", lang)

    in_both_languages(page, ready, check)

    named: Any = page.evaluate(
        """async (agents) => {
          const { deviceName } = await import('/app/sessions.js');
          return agents.map(deviceName);
        }""",
        [
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
            "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
            "Mozilla/5.0 (Android 14; Mobile; rv:132.0) Gecko/132.0 Firefox/132.0",
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/131.0.0.0 Safari/537.36",
            "Python-urllib/3.11",
        ],
    )
    assert named == [
        "Edge on Windows",
        "Safari on iOS",
        "Firefox on Android",
        "Chrome on macOS",
        "Python-urllib",
    ], named


# --- the account mails' pages -------------------------------------------------------------------


def test_the_account_mail_pages_fit_a_phone(
    site: Site, open_page: OpenPage, mailbox: Mailbox
) -> None:
    """The sign-in page's `Forgot your password?`, the registration's optional address, the
    request's page once answered, a reset's page with a refused link, a confirmation's page and
    the profile's `E-mail address` (an address of the longest kind, its removal open)."""
    page = phone(open_page, site)
    address = f"{LONG.replace('_', '.')}@correio-electronico.example.com"  # 64 characters
    site.give_address(site.register(LONG), address, mailbox)
    main = page.locator("main")

    page.goto("/#/login")
    forgot = {"en": "Forgot your password?", "pt": "Esqueceu-se da palavra-passe?"}

    def ready_sign_in(lang: str) -> None:
        expect(page.get_by_role("link", name=forgot[lang])).to_be_visible()

    def check(name: str) -> Callable[[str], None]:
        def checked(lang: str) -> None:
            assert_fits(page, f"{name} ({lang})")
            shoot(page, name, lang)

        return checked

    in_both_languages(page, ready_sign_in, check("sign-in"))

    # As a reset's link leaves it (web/app/api.js, resetPassword): the name filled, and said.
    page.evaluate("(name) => sessionStorage.setItem('uno.password-reset', name)", LONG)
    page.reload()

    def ready_reset_done(lang: str) -> None:
        expect(main.get_by_role("status")).to_contain_text(LONG)
        expect(page.locator("#username")).to_have_value(LONG)

    in_both_languages(page, ready_reset_done, check("sign-in-after-reset"))

    page.goto("/#/register")
    optional = {"en": "E-mail address (optional)", "pt": "Endereço de e-mail (opcional)"}

    def ready_register(lang: str) -> None:
        expect(page.get_by_label(optional[lang])).to_be_visible()

    in_both_languages(page, ready_register, check("register"))

    page.goto("/#/forgot")
    send = {"en": "Send the link", "pt": "Enviar a ligação"}

    def ready_forgot(lang: str) -> None:
        page.locator("#forgot-email").fill(address)
        page.get_by_role("button", name=send[lang]).click()
        expect(main.get_by_role("status")).not_to_be_empty()

    in_both_languages(page, ready_forgot, check("forgot"))
    mailbox.wait_for(address, count=2)  # one a language
    mailbox.clear()

    page.goto("/#/reset/not-a-token")
    save = {"en": "Save the password", "pt": "Guardar a palavra-passe"}

    def ready_reset(lang: str) -> None:
        page.locator("#reset-password").fill("a long enough password 9")
        page.get_by_role("button", name=save[lang]).click()
        expect(main.get_by_role("alert")).not_to_be_empty()

    in_both_languages(page, ready_reset, check("reset-refused"))

    register(page, "ana")
    token = site.token("ana")
    body = {"email": "ana@example.com", "password": PASSWORD}
    site.api("POST", "/api/v1/players/me/email/", token, body, status=202)
    page.goto(mailbox.wait_for("ana@example.com").link_in("email"))

    def ready_confirmed(lang: str) -> None:
        expect(page.locator("section.email-confirm [role=status]")).to_contain_text(
            "ana@example.com"
        )

    in_both_languages(page, ready_confirmed, check("email-confirmed"))

    site.give_address(token, address, mailbox)  # ana's address: the long one now
    page.goto("/#/players/ana")
    section = page.locator("section.email-section")

    def ready_section(lang: str) -> None:
        expect(section.locator("strong[data-email]")).to_have_text(address)
        section.locator("details.email-remove summary").click()
        expect(section.locator("#email-remove-password")).to_be_visible()

    def check_section(lang: str) -> None:
        assert_fits(page, f"profile's e-mail ({lang})")
        assert page.evaluate(PANELS_APART) == [], lang
        section.scroll_into_view_if_needed()
        shoot(page, "profile-email", lang)

    in_both_languages(page, ready_section, check_section)
