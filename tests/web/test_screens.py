"""What the screens say, as a screen audit read them: a tournament's refusal in the page's
language, a replay before the first deal with no seat to play, a vacation section that offers
only the action that applies (and, on vacation, says until when), the inbox and the lobby's
"Your games" that name the other players (never the viewer) and tell a waiting game from one
being played, and a profile whose rating is one number (mu and sigma on hovering).

With ``LAYOUT_SHOTS=<dir>`` each screen is also saved there at 375 px and 1280 px, in English
and in Portuguese (test_layout's ``shoot``)."""

from __future__ import annotations

import re
from datetime import datetime

from playwright.sync_api import Locator, Page, expect

from games.models import Tournament, TournamentStatus
from tests.support.tournaments import body_of
from tests.web import scripted
from tests.web.conftest import OpenPage
from tests.web.pages import button, sign_in
from tests.web.site import GAMES, Site
from tests.web.test_layout import assert_fits, in_both_languages, shoot
from tests.web.test_words import in_portuguese, sign_in_pt

PHONE = 375
MU, SIGMA = "\N{GREEK SMALL LETTER MU}", "\N{GREEK SMALL LETTER SIGMA}"


def when(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


# --- tournaments --------------------------------------------------------------------------------


def test_a_tournament_join_refused_is_told_in_portuguese(site: Site, open_page: OpenPage) -> None:
    host = site.register("bea")
    site.register("ana")
    body = body_of(
        name="Torneio de Outono", table_size=2, rounds=1, settings={"turn_timeout": 86400}
    )
    made = site.api("POST", "/api/v1/tournaments/", host, body, status=201)
    page = in_portuguese(open_page(site, width=PHONE))
    sign_in_pt(page, "ana")
    page.goto(f"/#/tournaments/{made['id']}")
    # The tournament's page drawn first: the sign-in form's `Entrar` may still be on the screen.
    expect(page.locator(f"h1[data-tournament-id='{made['id']}']")).to_be_visible()
    join = button(page, "Entrar")
    expect(join).to_be_visible()

    # It starts meanwhile (unseen by the page: no event of its log says so); Join is refused.
    Tournament.objects.filter(pk=made["id"]).update(status=TournamentStatus.RUNNING)
    join.click()
    alert = page.locator("[role=alert]").filter(has_text=re.compile(r"\S"))
    expect(alert).to_have_text("Este torneio já começou: não aceita novos jogadores.")
    # And the page shows it as it stands now: running, no Join.
    expect(page.locator("span.tag[data-status]")).to_have_attribute("data-status", "running")
    expect(join).to_have_count(0)
    assert_fits(page, "tournament refused (pt)")
    shoot(page, "tournament-refused", "pt")


# --- the replay ---------------------------------------------------------------------------------


def test_the_replay_before_the_first_deal_marks_no_seat_to_play(
    site: Site, open_page: OpenPage
) -> None:
    game, tokens, last = scripted.finished(site)
    page = open_page(site, width=PHONE)
    sign_in(page, "bea")
    page.goto(f"/#/replay/{game}")
    replay = page.locator(".replay")
    seats = page.locator("[data-region=seats] > li")
    current = page.locator("[data-region=seats] > li.current")

    def ready(lang: str) -> None:
        expect(replay).to_have_attribute("data-at", "1")
        expect(seats).to_have_count(2)
        round_now = site.replay(game, tokens[1], 1)["round"]
        assert round_now is None or round_now["number"] == 0, round_now

    def check(lang: str) -> None:
        expect(current).to_have_count(0)
        expect(page.locator("[data-region=seats] [aria-current]")).to_have_count(0)
        shoot(page, "replay-start", lang)

    in_both_languages(page, ready, check)

    # Dealt, the seat to play is marked, as the table marks it.
    middle = last // 2
    expect(replay).to_have_attribute("data-version", str(last))  # drawn again in English
    page.locator("#replay-position").fill(str(middle))
    expect(replay).to_have_attribute("data-at", str(middle))
    to_play = site.replay(game, tokens[1], middle)["round"]["current_seat"]
    expect(current).to_have_count(1)
    expect(current).to_have_attribute("data-seat", str(to_play))
    expect(current).to_have_attribute("aria-current", "true")


# --- the vacation -------------------------------------------------------------------------------


def vacation(page: Page) -> Locator:
    return page.locator("form.vacation")


def test_the_vacation_section_offers_only_what_applies_and_says_until_when(
    site: Site, open_page: OpenPage
) -> None:
    game, tokens = scripted.started(site)  # a correspondence game: a vacation stops its clocks
    page = open_page(site, width=PHONE)
    sign_in(page, "ana")
    page.goto("/#/players/ana")
    section = vacation(page)
    start = section.get_by_role("button", name="Start vacation", exact=True)
    end = section.get_by_role("button", name="End vacation", exact=True)

    # None runs: only the form that starts one.
    expect(start).to_be_visible()
    expect(end).to_have_count(0)
    expect(section.get_by_label("Vacation days")).to_be_visible()

    # Started: its end, and only End.
    section.get_by_label("Vacation days").fill("3")
    start.click()
    expect(section.get_by_role("status")).to_have_text("Vacation started.")
    expect(end).to_be_visible()
    expect(start).to_have_count(0)
    expect(section.get_by_label("Vacation days")).to_have_count(0)
    until = when(site.view(game, tokens[1])["seats"][0]["on_vacation_until"])
    shown = section.locator("[data-until]")
    expect(shown).to_contain_text("On vacation until")
    assert when(str(shown.get_attribute("data-until"))) == until

    # Another browser of hers reads it from her profile.
    elsewhere = open_page(site, width=PHONE)
    sign_in(elsewhere, "ana")
    elsewhere.goto("/#/players/ana")
    words = {"en": "On vacation until", "pt": "De férias até"}
    ends = {"en": "End vacation", "pt": "Terminar férias"}
    starts = {"en": "Start vacation", "pt": "Começar férias"}

    def ready(lang: str) -> None:
        expect(vacation(elsewhere).locator("[data-until]")).to_contain_text(words[lang])

    def check(lang: str) -> None:
        expect(button(elsewhere, ends[lang])).to_be_visible()
        expect(button(elsewhere, starts[lang])).to_have_count(0)
        assert_fits(elsewhere, f"vacation ({lang})")
        shoot(elsewhere, "profile-vacation", lang)

    in_both_languages(elsewhere, ready, check)

    # Ended: the form to start one again, and nothing of the last.
    end.click()
    expect(section.get_by_role("status")).to_have_text("Vacation ended.")
    expect(start).to_be_visible()
    expect(end).to_have_count(0)
    expect(section.locator("[data-until]")).to_have_count(0)
    assert "on_vacation_until" not in site.view(game, tokens[1])["seats"][0]


# --- the inbox and the lobby --------------------------------------------------------------------


def test_the_inbox_names_the_other_players_not_the_viewer(site: Site, open_page: OpenPage) -> None:
    game, _ = scripted.started(site)  # Ana's turn
    page = open_page(site, width=PHONE)
    sign_in(page, "ana")
    page.goto("/#/inbox")
    item = page.locator(f'li.game-item[data-game-id="{game}"]')
    names = item.locator("strong")
    said = {"en": "With bea", "pt": "Com bea"}

    def ready(lang: str) -> None:
        expect(names).to_have_text(said[lang])

    def check(lang: str) -> None:
        expect(item).not_to_contain_text("ana")
        shoot(page, "inbox-others", lang)

    in_both_languages(page, ready, check)


def test_your_games_tell_waiting_from_active_and_name_the_opponent(
    site: Site, open_page: OpenPage
) -> None:
    active, tokens = scripted.started(site)  # Ana's turn, against Bea
    waiting = str(site.api("POST", GAMES, tokens[0], {"max_players": 3}, status=201)["id"])
    page = open_page(site, width=PHONE)
    sign_in(page, "ana")
    page.goto("/#/")
    # (Its own games are in no other list of the lobby: the open games are others'.)
    mine = page.locator("ul.game-list").first
    row_active = mine.locator(f'[data-game-id="{active}"]')
    row_waiting = mine.locator(f'[data-game-id="{waiting}"]')
    words = {
        "en": ("With bea", "Your turn", "Waiting for players", "1/3 players"),
        "pt": ("Com bea", "É a sua vez", "À espera de jogadores", "1/3 jogadores"),
    }

    def ready(lang: str) -> None:
        expect(row_active.locator("strong")).to_have_text(words[lang][0])

    def check(lang: str) -> None:
        _, turn, waits, seated = words[lang]
        expect(row_active).to_contain_text(turn)
        expect(row_active).not_to_contain_text(waits)
        expect(row_active).not_to_contain_text("ana")
        expect(row_waiting.locator("strong")).to_have_text(waits)
        expect(row_waiting).to_contain_text(seated)
        expect(row_waiting).not_to_contain_text("ana")
        assert_fits(page, f"lobby ({lang})")
        shoot(page, "lobby-yourgames", lang)

    in_both_languages(page, ready, check)

    # Bea's turn once Ana has played: the row says whose it is.
    site.act(active, tokens[0], scripted.MOVES[0][1])
    page.reload()
    expect(row_active).to_contain_text("bea to play")
    expect(row_active).not_to_contain_text("Your turn")


# --- the profile's rating -----------------------------------------------------------------------


def test_the_profile_shows_the_rating_as_one_number(site: Site, open_page: OpenPage) -> None:
    _, tokens, _ = scripted.finished(site)  # rated: Ana won
    rating = site.api("GET", "/api/v1/players/me/", tokens[0])["rating"]
    page = open_page(site, width=PHONE)
    sign_in(page, "ana")
    page.goto("/#/players/ana")
    shown = page.locator("dd[data-rating]")
    value = shown.locator(".rating-value")
    helps = {"en": "Starts at 0", "pt": "Começa em 0"}

    def ready(lang: str) -> None:
        expect(shown).to_contain_text(helps[lang])

    def number(x: float, lang: str) -> str:
        """One decimal, as the page's language writes it (a comma in Portuguese)."""
        text = f"{x:.1f}"
        return text.replace(".", ",") if lang == "pt" else text

    def check(lang: str) -> None:
        expect(value).to_have_text(number(rating["ordinal"], lang))
        expect(shown).not_to_contain_text(MU)
        expect(shown).not_to_contain_text(SIGMA)
        title = str(value.get_attribute("title"))
        assert f"{MU} {number(rating['mu'], lang)}" in title, title
        assert f"{SIGMA} {number(rating['sigma'], lang)}" in title, title
        assert_fits(page, f"profile rating ({lang})")
        shoot(page, "profile-rating", lang)

    in_both_languages(page, ready, check)
