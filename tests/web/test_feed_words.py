"""The move feed's wording (web/app/feed.js ``lineOf`` / ``feedItem``) in English and Portuguese,
in Node without a browser (feed_check.mjs): lines of events the engine wrote, as the seat's own
event log serves them, and a few made by hand. What each line shows and what a screen reader is
told of it: a turn's line is not read out, except that a skip names the seat it passed over (a
skip, a reverse with two players, the first card); a draw card's victim is named by its draw."""

from __future__ import annotations

from typing import Any

import pytest

from games import engine
from tests.support.decks import deck_for
from tests.web import scripted
from tests.web.node import run_check

# Three players, dealt by seat 2: the first card, a skip, passes over seat 0; seat 1's skip
# passes over seat 2; seat 0's reverse hands the turn back to seat 2 (no one skipped); seat 2's
# draw two makes seat 1 draw and lose its turn.
HANDS3 = (
    ("red-reverse", "green-1", "green-2", "green-4", "yellow-1", "yellow-3", "blue-1"),
    ("red-skip", "green-5", "green-6", "green-7", "yellow-7", "yellow-9", "blue-2"),
    ("red-draw2", "green-8", "blue-3", "blue-4", "blue-5", "blue-6", "blue-7"),
)
MOVES3 = (
    (1, {"action": "play", "card": "red-skip"}),
    (0, {"action": "play", "card": "red-reverse"}),
    (2, {"action": "play", "card": "red-draw2"}),
)


def _log(
    hands: tuple[tuple[str, ...], ...],
    starter: str,
    draws: tuple[str, ...],
    moves: tuple[tuple[int, dict[str, Any]], ...],
    viewer: int,
) -> list[dict[str, Any]]:
    """The events of a game dealt from a given deck, as ``viewer``'s event log serves them."""
    options = engine.make_options({}, target_score=scripted.TARGET)
    deck = deck_for(hands, starter, draws)
    events = list(engine.start_game(players=len(hands), options=options, seed=1, deck=deck))
    state = engine.replay(events)
    for seat, action in moves:
        batch, state = engine.act(state, seat, action)
        events.extend(batch)
    return [{"seq": i + 1, **engine.event_view(e, viewer, False)} for i, e in enumerate(events)]


def _view(names: list[str], me: int | None) -> dict[str, Any]:
    seats = [
        {"seat": i, "player": {"id": i + 1, "username": n}, "status": "playing"}
        for i, n in enumerate(names)
    ]
    return {"seats": seats, "you": None if me is None else {"seat": me}}


def _seq_of(events: list[dict[str, Any]], kind: str, nth: int = 0, **data: Any) -> int:
    """The seq of the ``nth`` event of type ``kind`` whose data has ``data``."""
    found = [
        e["seq"]
        for e in events
        if e["type"] == kind and all(e["data"].get(k) == v for k, v in data.items())
    ]
    return int(found[nth])


def _case(name: str, names: list[str], me: int | None, events: list[dict[str, Any]]) -> dict:
    return {
        "name": name,
        "view": _view(names, me),
        "events": events,
        "lines": [e["seq"] for e in events],
    }


def _by_hand(me: int) -> list[dict[str, Any]]:
    """uno_said, uno_caught and hands_swapped: their data is all a line needs."""
    return [
        {"seq": 1, "type": "uno_said", "seat": 1, "data": {}},
        {"seq": 2, "type": "uno_said", "seat": me, "data": {}},
        {"seq": 3, "type": "uno_caught", "seat": 1, "data": {"target": me}},
        {"seq": 4, "type": "uno_caught", "seat": me, "data": {"target": 2}},
        {"seq": 5, "type": "hands_swapped", "seat": me, "data": {"target": 2}},
        {"seq": 6, "type": "hands_swapped", "seat": 2, "data": {"target": 1}},
        {"seq": 7, "type": "hands_swapped", "seat": 1, "data": {"target": me}},
    ]


# The viewer (seat 0, "ana") moving, and at the receiving end of another's move, in every wording
# that names a seat: (event, English, Portuguese). European Portuguese addresses the viewer by the
# verb alone, in words that need no gender: never "você", never a pronoun in a name's slot.
YOU = 0
ABOUT_YOU: list[tuple[dict[str, Any], str, str]] = [
    (
        {"type": "round_started", "seat": None, "data": {"number": 2, "dealer": YOU}},
        "Round 2, dealt by you",
        "Ronda 2, dada por si",
    ),
    (
        {"type": "card_played", "seat": YOU, "data": {"cards": ["red-3"], "color": "red"}},
        "You played Red 3",
        "Jogou Vermelho 3",
    ),
    (
        {"type": "card_played", "seat": YOU, "data": {"cards": ["wild"], "color": "blue"}},
        "You played Wild and named Blue",
        "Jogou Joker e escolheu Azul",
    ),
    (
        {"type": "cards_drawn", "seat": YOU, "data": {"cards": ["red-1"], "reason": "draw"}},
        "You drew a card · Red 1",
        "Comprou uma carta · Vermelho 1",
    ),
    (
        {
            "type": "cards_drawn",
            "seat": YOU,
            "data": {"cards": ["red-1", "red-2"], "reason": "draw"},
        },
        "You drew 2 cards · Red 1 Red 2",
        "Comprou 2 cartas · Vermelho 1 Vermelho 2",
    ),
    (
        {"type": "cards_drawn", "seat": YOU, "data": {"cards": [], "count": 4, "reason": "take"}},
        "You drew 4 and were skipped",
        "Comprou 4 e perdeu a vez",
    ),
    (
        {
            "type": "cards_drawn",
            "seat": YOU,
            "data": {"cards": [], "count": 1, "reason": "starter"},
        },
        "You drew 1: the first card",
        "Comprou 1: a primeira carta",
    ),
    (
        {"type": "cards_drawn", "seat": YOU, "data": {"cards": [], "count": 2, "reason": "caught"}},
        "You drew 2: caught without UNO",
        "Comprou 2: faltou dizer UNO",
    ),
    (
        {"type": "cards_drawn", "seat": YOU, "data": {"cards": [], "count": 2, "reason": "uno"}},
        "You drew 2: UNO not said",
        "Comprou 2: UNO não dito",
    ),
    (
        {"type": "cards_drawn", "seat": YOU, "data": {"cards": [], "count": 4, "reason": "bluff"}},
        "You drew 4: bluff caught",
        "Comprou 4: bluff apanhado",
    ),
    (
        {
            "type": "cards_drawn",
            "seat": YOU,
            "data": {"cards": [], "count": 6, "reason": "challenge"},
        },
        "You drew 6: challenge lost",
        "Comprou 6: desafio perdido",
    ),
    (
        {"type": "color_discarded", "seat": YOU, "data": {"cards": ["red-4"]}},
        "You discarded Red 4",
        "Descartou Vermelho 4",
    ),
    (
        {"type": "cards_given", "seat": YOU, "data": {"target": 1, "cards": [], "count": 2}},
        "You gave bo 2 cards",
        "Deu 2 cartas a bo",
    ),
    (
        {"type": "cards_given", "seat": 1, "data": {"target": YOU, "cards": [], "count": 1}},
        "bo gave you a card",
        "bo deu-lhe uma carta",
    ),
    ({"type": "passed", "seat": YOU, "data": {}}, "You passed", "Passou"),
    (
        {"type": "challenged", "seat": YOU, "data": {"target": 1, "guilty": True, "hand": []}},
        "You challenged bo: it was a bluff",
        "Desafiou bo: era bluff",
    ),
    (
        {"type": "challenged", "seat": 1, "data": {"target": YOU, "guilty": True, "hand": []}},
        "bo challenged you: it was a bluff",
        "bo desafiou o seu +4: era bluff",
    ),
    (
        {"type": "challenged", "seat": YOU, "data": {"target": 1, "guilty": False, "hand": []}},
        "You challenged bo: it was fair",
        "Desafiou bo: era legítimo",
    ),
    (
        {"type": "challenged", "seat": 1, "data": {"target": YOU, "guilty": False, "hand": []}},
        "bo challenged you: it was fair",
        "bo desafiou o seu +4: era legítimo",
    ),
    (
        {"type": "color_chosen", "seat": YOU, "data": {"color": "green"}},
        "You named Green",
        "Escolheu Verde",
    ),
    ({"type": "uno_caught", "seat": YOU, "data": {"target": 2}}, "You caught cy", "Apanhou cy"),
    (
        {"type": "uno_caught", "seat": 2, "data": {"target": YOU}},
        "cy caught you",
        "cy deu pela falta do seu UNO",
    ),
    (
        {"type": "timed_out", "seat": YOU, "data": {"count": 2}},
        "You ran out of time (2)",
        "Ficou sem tempo (2)",
    ),
    ({"type": "went_out", "seat": YOU, "data": {}}, "You went out", "Ficou sem cartas"),
    (
        {"type": "forfeited", "seat": YOU, "data": {"reason": "timeout"}},
        "You forfeited: out of time",
        "Perdeu por tempo",
    ),
    ({"type": "forfeited", "seat": YOU, "data": {"reason": "resign"}}, "You resigned", "Desistiu"),
    (
        {
            "type": "round_ended",
            "seat": None,
            "data": {"number": 3, "winner_seat": YOU, "points": [40, 0, 0]},
        },
        "Round 3 over: you went out, +40",
        "Ronda 3 terminada: ficou sem cartas, +40",
    ),
    (
        {"type": "game_ended", "seat": None, "data": {"winner_seat": YOU}},
        "Game over: you won",
        "Fim do jogo: ganhou",
    ),
    (  # with teams, the team (it named the seat that went out last)
        {"type": "game_ended", "seat": None, "data": {"winner_seat": 2, "winner_team": 1}},
        "Game over: team 2 won",
        "Fim do jogo: a equipa 2 ganhou",
    ),
]


@pytest.fixture(scope="module")
def lines(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, dict[int, Any]]]:
    """Each case's lines: {case: {lang: {seq: {shown, said, cards}}}}."""
    two = (scripted.HANDS, scripted.STARTER, scripted.DRAWS, scripted.MOVES)
    three = (HANDS3, "red-skip", ("yellow-2", "yellow-5"), MOVES3)
    cases = [
        _case("bea", ["ana", "bea"], 1, _log(*two, viewer=1)),
        _case("ana", ["ana", "bea"], 0, _log(*two, viewer=0)),
        _case("three", ["ana", "bo", "cy"], 0, _log(*three, viewer=0)),
        _case("by hand", ["ana", "bo", "cy"], 0, _by_hand(0)),
        _case(
            "about you",
            ["ana", "bo", "cy"],
            YOU,
            [{"seq": i + 1, **event} for i, (event, _, _) in enumerate(ABOUT_YOU)],
        ),
    ]
    modules = ("feed.js", "dom.js", "i18n.js", "locales.js")
    out = run_check("feed_check.mjs", cases, tmp_path_factory.mktemp("feed"), modules)
    result = {
        case["name"]: {
            lang: {int(seq): line for seq, line in by_seq.items()}
            for lang, by_seq in case["lines"].items()
        }
        for case in out
    }
    result["events"] = {c["name"]: c["events"] for c in cases}
    return result


def said(lines: dict, case: str, seq: int) -> tuple[str, str]:
    """What a screen reader is told of a line, in English and in Portuguese."""
    return lines[case]["en"][seq]["said"], lines[case]["pt"][seq]["said"]


def shown(lines: dict, case: str, seq: int) -> tuple[str, str]:
    return lines[case]["en"][seq]["shown"], lines[case]["pt"][seq]["shown"]


def test_uno_said_caught_and_hands_swapped(lines: dict) -> None:
    assert said(lines, "by hand", 1) == ("bo said UNO!", "bo disse UNO!")
    assert said(lines, "by hand", 2) == ("You said UNO!", "Disse UNO!")
    assert said(lines, "by hand", 3) == ("bo caught you", "bo deu pela falta do seu UNO")
    assert said(lines, "by hand", 4) == ("You caught cy", "Apanhou cy")
    assert said(lines, "by hand", 5) == ("You and cy swapped hands", "Trocou de mão com cy")
    assert said(lines, "by hand", 6) == ("cy and bo swapped hands", "cy e bo trocaram de mão")
    assert said(lines, "by hand", 7) == ("bo and you swapped hands", "bo trocou de mão consigo")


def test_a_draw_two_on_you_and_by_you(lines: dict) -> None:
    events = lines["events"]["bea"]
    played = _seq_of(events, "card_played", cards=["blue-draw2"])
    drawn = played + 1
    assert said(lines, "bea", played) == ("ana played Blue draw 2", "ana jogou Azul +2")
    # Bea sees her own draw: the cards are pictured, and read by their names.
    assert said(lines, "bea", drawn) == (
        "You drew 2 and were skipped · Red 1 Red 6",
        "Comprou 2 e perdeu a vez · Vermelho 1 Vermelho 6",
    )
    assert lines["bea"]["en"][drawn]["cards"] == ["red-1", "red-6"]
    # Ana is told the count only: no card of Bea's in her line.
    assert said(lines, "ana", drawn) == (
        "bea drew 2 and was skipped",
        "bea comprou 2 e perdeu a vez",
    )
    assert lines["ana"]["en"][drawn]["cards"] == []
    # The turn after it is not read out (the draw named who lost the turn).
    turn = drawn + 1
    assert events[turn - 1]["type"] == "turn_changed"
    assert said(lines, "bea", turn) == ("", "")
    assert shown(lines, "bea", turn) == ("ana to play", "Vez de ana")


def test_a_skip_and_a_reverse_between_two_name_the_seat_passed_over(lines: dict) -> None:
    events = lines["events"]["bea"]
    for card in ("blue-skip", "blue-reverse"):
        turn = _seq_of(events, "card_played", cards=[card]) + 1
        assert events[turn - 1]["type"] == "turn_changed"
        assert said(lines, "bea", turn) == ("You were skipped", "Perdeu a vez")
        assert shown(lines, "bea", turn) == (
            "You were skipped · ana to play",
            "Perdeu a vez · Vez de ana",
        )
        assert said(lines, "ana", turn) == ("bea was skipped", "bea perdeu a vez")
        assert shown(lines, "ana", turn) == (
            "bea was skipped · Your turn",
            "bea perdeu a vez · A sua vez",
        )


def test_skips_among_three(lines: dict) -> None:
    events = lines["events"]["three"]
    turns = [e["seq"] for e in events if e["type"] == "turn_changed"]
    first, after_skip, after_reverse, after_draw = turns
    # The first card, a skip: the first seat after the dealer (seat 0, "you") is passed over.
    assert said(lines, "three", first) == ("You were skipped", "Perdeu a vez")
    assert said(lines, "three", after_skip) == ("cy was skipped", "cy perdeu a vez")
    # A reverse among three skips no one: the turn's line is not read out.
    assert said(lines, "three", after_reverse) == ("", "")
    assert said(lines, "three", after_draw) == ("", "")
    assert said(lines, "three", after_draw - 1) == (
        "bo drew 2 and was skipped",
        "bo comprou 2 e perdeu a vez",
    )


def test_every_line_but_the_turns_is_read_out(lines: dict) -> None:
    """One line a move: the turn's and the bank's lines are hidden from a screen reader unless
    they name a seat skipped; every other line is read as it is shown."""
    for case in ("bea", "ana", "three"):
        for event in lines["events"][case]:
            line = lines[case]["en"][event["seq"]]
            if event["type"] in ("turn_changed", "bank_changed"):
                assert line["said"] in ("", line["shown"].split(" · ")[0]), (case, event, line)
            else:
                assert line["said"] == line["shown"] and line["said"], (case, event, line)


def test_the_viewer_in_every_wording_that_names_a_seat(lines: dict) -> None:
    """The viewer's own moves and the moves made on them: "You ..." in English; in Portuguese the
    verb alone (or "si", "lhe", "consigo", "o seu"), the way the rest of the page speaks."""
    for seq, (event, english, portuguese) in enumerate(ABOUT_YOU, start=1):
        assert shown(lines, "about you", seq) == (english, portuguese), event
