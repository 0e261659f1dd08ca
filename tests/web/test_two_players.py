"""Two people, each in a browser of their own, register, meet at a private table through its
invite link and play a whole round by clicking: a wild and its colour, a draw kept with Pass,
UNO said with the second-to-last card, and the last card. The round is dealt from a given deck
(tests/web/scripted.py), so every click is known in advance; after every move both pages show
the game as the API does, and neither page ever holds a card of the other seat."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.web import scripted
from tests.web.conftest import OpenPage
from tests.web.pages import (
    assert_feed_matches_log,
    assert_no_foreign_cards,
    at_version,
    catch_button,
    feed_lines,
    hand_cards,
    open_table,
    perform,
    register,
    table,
)
from tests.web.site import Site
from tests.web.test_layout import switch


def test_two_people_register_meet_and_play_a_whole_round_by_clicking(
    site: Site, open_page: OpenPage
) -> None:
    ana, bea = open_page(site), open_page(site)
    register(ana, "ana")
    register(bea, "bea")
    # Only staff may deal a given deck: Ana is made staff, and creates the table over the API.
    tokens = [site.make_staff("ana"), site.token("bea")]
    game = scripted.create(site, tokens[0], private=True)
    game_id = str(game["id"])

    open_table(ana, game_id)
    expect(table(ana)).to_have_attribute("data-game-status", "waiting")
    # Ana sends Bea the invite link her waiting table shows; Bea opens it.
    invite = ana.get_by_label("Invite link")
    expect(invite).to_have_value(re.compile(rf"#/join/{game['invite_code']}$"))
    bea.goto(str(invite.input_value()))
    expect(bea).to_have_url(re.compile(rf"#/game/{game_id}$"))
    pages = [ana, bea]
    for page in pages:
        expect(table(page)).to_have_attribute("data-game-status", "active")

    said_uno = False
    for number, (seat, action) in enumerate(scripted.MOVES):
        version = site.view(game_id, tokens[0])["version"]
        for page, token in zip(pages, tokens, strict=True):
            at_version(page, version)
            assert_no_foreign_cards(page, site, game_id, token)
            assert_feed_matches_log(page, site, game_id, token)
        if number == 0:
            assert sorted(hand_cards(ana)) == sorted(scripted.HANDS[0])
        if action == {"action": "pass"}:
            # Bea drew blue-9, which she could play: she is offered Pass, and keeps it.
            assert "blue-9" in hand_cards(bea)
        if said_uno:
            # Ana holds one card and said UNO with her play: there is nothing to catch.
            expect(catch_button(bea)).to_have_count(0)
        perform(pages[seat], action)
        expect(table(pages[seat])).not_to_have_attribute("data-version", str(version))
        said_uno = bool(action.get("uno"))

    final = site.view(game_id, tokens[0])
    assert final["status"] == "finished" and final["winner_seat"] == 0, final
    assert final["last_round"]["points"] == [scripted.POINTS, 0]
    for page, token in zip(pages, tokens, strict=True):
        at_version(page, final["version"])
        expect(table(page)).to_have_attribute("data-game-status", "finished")
        # The end of the round shows the points and every hand (Bea's 11 cards, face up).
        expect(page.locator("[data-region=last-round]")).to_contain_text(f"+{scripted.POINTS}")
        for card in final["last_round"]["hands"]["1"]:
            expect(page.locator(f'[data-card="{card}"]').first).to_be_attached()
        assert_no_foreign_cards(page, site, game_id, token)
        # The feed's last lines may come after the finished board: once the game is over the
        # stream stops, and lines its frames had not brought yet are read from the log. Awaited
        # (its newest line is the last event) before the feeds are read below.
        assert_feed_matches_log(page, site, game_id, token)

    # The feed tells each of them the round in words, "you" for their own moves; Bea's own
    # draws show her cards, Ana's lines of them only the count.
    for page, lines in ((bea, BEA_SEES), (ana, ANA_SEES)):
        shown = [line["text"] for line in feed_lines(page)]
        assert [line for line in shown if line in lines] == list(reversed(lines)), "\n".join(shown)
    # The switch draws the page afresh: awaited (a new root) before its feed is read, or the
    # English feed still on screen is read as the Portuguese one.
    switch(bea, "pt")
    at_version(bea, final["version"])
    newest = bea.locator("[data-region=feed] li").first
    expect(newest).to_have_attribute("data-seq", str(final["version"]))
    shown = [line["text"] for line in feed_lines(bea)]
    assert [line for line in shown if line in BEA_SEES_PT] == list(reversed(BEA_SEES_PT)), (
        "\n".join(shown)
    )
    switch(bea, "en")


# Lines of the feeds, oldest first (each feed shows them newest first, among the turns' lines).
BEA_SEES = [
    "ana played Wild and named Blue",
    "You drew a card · Blue 9",
    "You passed",
    "ana played Blue skip",
    "You were skipped · ana to play",
    "ana played Blue reverse",
    "You were skipped · ana to play",
    "ana played Blue draw 2",
    "You drew 2 and were skipped · Red 1 Red 6",
    "ana played Green 3 UNO!",
    "You played Green 9",
    "Round 1 over: ana went out, +56",
    "Game over: ana won",
]
ANA_SEES = [
    "You played Wild and named Blue",
    "bea drew a card",
    "bea passed",
    "bea was skipped · Your turn",
    "bea was skipped · Your turn",
    "bea drew 2 and was skipped",
    "bea drew 2 and was skipped",
    "You played Green 3 UNO!",
    "Game over: you won",
]
BEA_SEES_PT = [
    "ana jogou Joker e escolheu Azul",
    "Comprou uma carta · Azul 9",
    "Passou",
    "Perdeu a vez · Vez de ana",
    "Perdeu a vez · Vez de ana",
    "ana jogou Azul +2",
    "Comprou 2 e perdeu a vez · Vermelho 1 Vermelho 6",
    "Ronda 1 terminada: ana ficou sem cartas, +56",
    "Fim do jogo: ana ganhou",
]
