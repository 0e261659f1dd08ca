"""The client's own words: refusals in the page's language (a code it has words for, a field's
validation named in that language), an unknown game told as such (and no "Loading…" left
beside it), notifications that say which game they are about and keep out of the way (none
about the game on the screen; at most two, never over the hand on a phone), the end of a game
said to its winner in the second person, and an empty move feed that says so."""

from __future__ import annotations

import uuid

from playwright.sync_api import Locator, Page, expect

from tests.support.players import PASSWORD
from tests.web import scripted
from tests.web.conftest import OpenPage
from tests.web.pages import at_version, button, hand, open_table, sign_in, table
from tests.web.site import GAMES, Site

PORTUGUESE = "localStorage.setItem('uno.lang', 'pt')"


def in_portuguese(page: Page) -> Page:
    """The page in Portuguese from its first paint (as the language switch leaves it)."""
    page.add_init_script(PORTUGUESE)
    return page


def alert(page: Page) -> Locator:
    return page.locator("form.auth [role=alert]")


def test_a_wrong_password_is_told_in_portuguese(site: Site, open_page: OpenPage) -> None:
    site.register("ana")
    page = in_portuguese(open_page(site, width=375))
    page.goto("/#/login")
    page.get_by_label("Nome de utilizador").fill("ana")
    page.get_by_label("Palavra-passe").fill("not her password")
    button(page, "Entrar").click()
    expect(alert(page)).to_have_text("Nome de utilizador ou palavra-passe errados.")


def test_a_short_password_at_registration_names_the_field_in_portuguese(
    site: Site, open_page: OpenPage
) -> None:
    page = in_portuguese(open_page(site, width=375))
    page.goto("/#/register")
    page.get_by_label("Nome de utilizador").fill("zeca")
    page.get_by_label("Palavra-passe").fill("Xy9!k")
    button(page, "Registar").click()
    expect(alert(page)).to_have_text("Palavra-passe: demasiado curta (pelo menos 8 caracteres).")

    # Two of Django's validators at once, each in Portuguese.
    page.get_by_label("Palavra-passe").fill("12345678")
    button(page, "Registar").click()
    expect(alert(page)).to_have_text("Palavra-passe: demasiado comum; não pode ter só algarismos.")

    # A username's characters, and both fields at once, each by the code the API gives it.
    page.get_by_label("Nome de utilizador").fill("zé carlos")
    page.get_by_label("Palavra-passe").fill("a long enough password")
    button(page, "Registar").click()
    expect(alert(page)).to_have_text("Nome de utilizador: só letras, algarismos e @ . + - _.")


def test_a_guests_name_at_registration_is_refused_in_portuguese(
    site: Site, open_page: OpenPage
) -> None:
    """A refusal the page has no words of its own for (``username_reserved``) is told in the
    reader's language, not in the server's English."""
    page = in_portuguese(open_page(site, width=375))
    page.goto("/#/register")
    page.get_by_label("Nome de utilizador").fill("guest-zeca")
    page.get_by_label("Palavra-passe").fill("a long enough password")
    button(page, "Registar").click()
    expect(alert(page)).to_have_text(
        'Nomes como "guest-…", "deleted-…" ou "bot-basic-1" são do serviço: escolha outro.'
    )


def test_an_unknown_game_says_so_and_stops_loading(site: Site, open_page: OpenPage) -> None:
    site.register("ana")
    page = in_portuguese(open_page(site, width=375))
    sign_in_pt(page, "ana")
    page.goto(f"/#/game/{uuid.uuid4()}")
    expect(page.locator("#table-alert")).to_have_text("Este jogo não existe.")
    expect(page.get_by_text("A carregar…")).to_have_count(0)
    expect(page.get_by_role("link", name="Salão", exact=True).last).to_be_visible()


def sign_in_pt(page: Page, username: str) -> None:
    page.goto("/#/login")
    page.get_by_label("Nome de utilizador").fill(username)
    page.get_by_label("Palavra-passe").fill(PASSWORD)
    button(page, "Entrar").click()
    expect(button(page, "Sair")).to_be_visible()


def toasts(page: Page) -> Locator:
    return page.locator("#toasts .toast")


def overlaps(a: Locator, b: Locator) -> bool:
    one, two = a.bounding_box(), b.bounding_box()
    assert one is not None and two is not None
    return not (
        one["x"] + one["width"] <= two["x"]
        or two["x"] + two["width"] <= one["x"]
        or one["y"] + one["height"] <= two["y"]
        or two["y"] + two["height"] <= one["y"]
    )


# The games of the notifications the page heard (inbox.js's `uno:notification`), in order.
HEARD = """
window.__heard = [];
addEventListener('uno:notification', (e) => window.__heard.push(e.detail.game));
"""


def test_toasts_name_their_game_skip_the_one_on_screen_and_keep_off_the_hand(
    site: Site, open_page: OpenPage
) -> None:
    game, tokens = scripted.started(site)  # Ana's turn at an active table of two
    ana = tokens[0]
    waiting = [
        str(site.api("POST", GAMES, ana, {"max_players": 6}, status=201)["id"]) for _ in range(2)
    ]
    others = {name: site.register(name) for name in ("cid", "dan", "eve", "fay", "gil")}

    def joins(name: str, at: str) -> None:
        site.api("POST", f"{GAMES}{at}/join/", others[name])

    page = open_page(site, width=375, height=667)
    page.add_init_script(HEARD)
    with page.expect_response(lambda r: "/players/me/stream/" in r.url):
        sign_in(page, "ana")
    open_table(page, waiting[0])

    # Cid joins the game on the screen (its table shows him), then Dan another game: only
    # Dan's is told, by name.
    joins("cid", waiting[0])
    expect(page.locator(".waiting li[data-seat]")).to_have_count(2)
    joins("dan", waiting[1])
    expect(toasts(page)).to_have_count(1)
    heard = page.evaluate("() => window.__heard")
    assert [waiting[0], waiting[1]] == heard[-2:], heard  # both came, one was shown
    expect(toasts(page)).to_contain_text("A player joined")
    expect(toasts(page)).to_contain_text("dan")
    expect(toasts(page).first).to_have_attribute("data-game-id", waiting[1])
    # Gil joins that game too: its toast is replaced by the newer news, one toast a game.
    joins("gil", waiting[1])
    expect(toasts(page).filter(has_text="gil")).to_have_count(1)
    expect(toasts(page)).to_have_count(1)

    # At the active table on a phone: three more about other games (which stay waiting: no
    # other notification comes), two shown, none over the hand or the action buttons.
    open_table(page, game)
    at_version(page, site.view(game, ana)["version"])
    for name, at in (("eve", waiting[0]), ("eve", waiting[1]), ("fay", waiting[0])):
        joins(name, at)
    expect(toasts(page).filter(has_text="fay")).to_have_count(1)
    expect(toasts(page)).to_have_count(2)
    actions = page.locator(".table .actions")
    for toast in toasts(page).all():
        expect(toast).to_be_in_viewport()
        assert not overlaps(toast, hand(page)), "a toast over the hand"
        assert not overlaps(toast, actions), "a toast over the action buttons"

    # A toast about a game is gone once that game is on the screen.
    open_table(page, waiting[0])
    expect(page.locator(f'#toasts [data-game-id="{waiting[0]}"]')).to_have_count(0)


def test_the_winner_is_told_in_the_second_person(site: Site, open_page: OpenPage) -> None:
    game, tokens = scripted.started(site)
    page = open_page(site, width=375)
    sign_in(page, "ana")
    open_table(page, game)
    final = scripted.play_through(site, game, tokens)
    at_version(page, final)
    expect(table(page)).to_have_attribute("data-game-status", "finished")
    expect(page.locator(".table-head h1")).to_have_text("Game over")
    expect(page.locator("[data-region=end] h2")).to_have_text("You win!")
    expect(page.locator("[data-region=last-round] h2")).to_have_text("Round 1 over: you went out.")


def test_an_empty_feed_says_there_is_no_move_yet(site: Site, open_page: OpenPage) -> None:
    token = site.register("ana")
    game = site.api("POST", GAMES, token, {"max_players": 2}, status=201)["id"]
    page = open_page(site)
    sign_in(page, "ana")
    open_table(page, str(game))
    expect(table(page)).to_have_attribute("data-game-status", "waiting")
    expect(page.locator("section.feed")).to_contain_text("No moves yet.")


def test_the_skip_link_and_the_main_navigation_are_named_in_portuguese(
    site: Site, open_page: OpenPage
) -> None:
    """Two things a screen reader says on every page stayed in English: the skip link and the
    main navigation's name."""
    site.register("rui")
    page = open_page(site)
    sign_in(page, "rui")
    page.get_by_role("button", name="Português").click()
    expect(page.locator(".skip-link")).to_have_text("Saltar para o conteúdo")
    expect(page.get_by_role("navigation", name="Principal")).to_be_visible()
    page.get_by_role("button", name="English").click()
    expect(page.locator(".skip-link")).to_have_text("Skip to content")
    expect(page.get_by_role("navigation", name="Main")).to_be_visible()
