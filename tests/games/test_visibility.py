"""No card reaches a seat that may not see it: views, action answers, event logs and replays.

Random games with several house-rule sets are played through HTTP; every response a seat (or a
spectator) receives is checked against the true state read from the database, path by path
(tests/support/visibility.py), and against the engine's own view of that seat.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import engine
from games.engine.bots import choose
from tests.support.fairness import chained, fairness_fields
from tests.support.players import MakePlayer, Player
from tests.support.table import Table, db_log, db_state, deck_table, log_size, ok, start_table
from tests.support.visibility import (
    assert_event_hides,
    assert_view_hides,
    assert_view_is_engine_view,
)

pytestmark = pytest.mark.django_db

SEED = 8_214_502_775_331_901  # large, so that it cannot pass for a count in a response

RULE_SETS = [
    pytest.param(2, {}, id="2-official"),
    pytest.param(
        3, {"stacking": True, "reverse_bounce": True, "jump_in": True}, id="3-stacking-jump-in"
    ),
    pytest.param(
        4,
        {"seven_zero": True, "multi_play": True, "draw_until_playable": True},
        id="4-seven-zero-multi",
    ),
    pytest.param(
        3,
        {
            "force_play": True,
            "no_action_finish": True,
            "elimination": True,
            "scoring": "penalty",
            "bluff_penalty": 6,
        },
        id="3-elimination-penalty",
    ),
    pytest.param(
        2, {"draw_until_playable": True, "force_play": True, "uno_penalty": 4}, id="2-draw-force"
    ),
    pytest.param(
        4,
        {"jump_in": True, "multi_play": True, "stacking": True, "scoring": "penalty"},
        id="4-jump-in-multi-stacking",
    ),
    pytest.param(
        4,
        {
            "two_gives": True,
            "zero_swap": True,
            "zero_discards_color": True,
            "eight_again": True,
            "uno_auto_penalty": True,
            "must_play": True,
        },
        id="4-second-set-gives-swaps",
    ),
    pytest.param(
        3,
        {"one_rotates": True, "color_runs": True, "action_on_action": True, "no_wild_finish": True},
        id="3-second-set-rotates-runs",
    ),
]
STEPS = 150


class Watcher:
    """Reads a table as each seat and a spectator would, and checks every answer."""

    def __init__(self, table: Table, spectator: Player) -> None:
        self.table = table
        self.spectator = spectator
        self.seen: dict[int | None, int] = {}

    def client(self, seat: int | None) -> Any:
        return self.spectator.client if seat is None else self.table.client(seat)

    def check_view(self, body: dict[str, Any], seat: int | None) -> None:
        state = db_state(self.table.id)
        assert (body["version"], body["version"]) == log_size(self.table.id)
        fair = ("deck_commitment", "seed", "salt")
        assert {key: body[key] for key in fair if key in body} == fairness_fields(self.table.id)
        if state.status == "finished":
            assert body["revealed"]["seed"] == state.seed
        else:
            assert_view_hides(body, state, seat)
        assert_view_is_engine_view(body, state, seat)

    def view(self, seat: int | None) -> dict[str, Any]:
        body = ok(self.client(seat).get(self.table.url()))
        self.check_view(body, seat)
        return body

    def events(self, seat: int | None) -> None:
        after = self.seen.get(seat, 0)
        page = ok(self.client(seat).get(self.table.url("events"), {"after": after}))
        log = db_log(self.table.id)
        assert page["version"] == len(log)
        assert [e["seq"] for e in page["events"]] == list(range(after + 1, len(log) + 1))
        finished = db_state(self.table.id).status == "finished"
        hashes = chained([{"seq": seq, **raw} for seq, raw in enumerate(log, 1)])
        for shown in page["events"]:
            raw = log[shown["seq"] - 1]
            if finished:  # everything shown, with the counts every viewer gets
                assert shown["hash"] == hashes[shown["seq"] - 1]
                assert shown["data"] == engine.event_view(raw, seat, True)["data"]
                assert shown["data"].items() >= raw["data"].items()
            else:
                assert_event_hides(shown, raw, seat)
                assert shown["data"] == engine.event_view(raw, seat, False)["data"]
        self.seen[seat] = len(log)

    def replay(self, seat: int | None, at: int) -> None:
        body = ok(self.client(seat).get(self.table.url("replay"), {"at": at}))
        state = engine.replay(db_log(self.table.id)[:at])
        assert body["version"] == at
        if db_state(self.table.id).status == "finished":
            assert_view_is_engine_view(body, state, seat, revealed=True)
        else:
            assert_view_hides(body, state, seat)
            assert_view_is_engine_view(body, state, seat)


def play_and_watch(
    rng: random.Random, table: Table, watcher: Watcher, players: int, steps: int
) -> None:
    """Bots play ``steps`` moves; the watcher reads the table as every seat now and then."""
    table_rules = db_state(table.id).options.rules()
    seats: list[int | None] = [*range(players), None]
    for step in range(steps):
        state = db_state(table.id)
        if state.status != "active":
            break
        actor = state.actor
        others = [
            (seat, action)
            for seat in range(players)
            if seat != actor
            for action in engine.legal_actions(state, seat)
        ]
        if others and rng.random() < 0.4:
            seat, action = rng.choice(others)
        else:
            # The actor reads its own view over HTTP every other move; a bot's choice needs only
            # its hand and its legal actions, which the engine gives as well.
            view = watcher.view(actor) if step % 2 else engine.view(state, actor)
            view["settings"] = {"rules": table_rules}
            seat, action = actor, choose(rng, view, prefer_play=0.95)
        body = ok(table.post(seat, action))
        watcher.check_view(body, seat)
        if step % 3 == 0:
            watcher.view(rng.choice(seats))
        if step % 25 == 24:
            for viewer in seats:
                watcher.events(viewer)
            watcher.replay(rng.choice(seats), rng.randint(1, body["version"]))


@pytest.mark.parametrize(("players", "rules"), RULE_SETS)
def test_no_card_leaks_in_random_games(
    make_player: MakePlayer, outsider: Player, players: int, rules: dict[str, Any]
) -> None:
    rng = random.Random(f"{players}{sorted(rules)}")
    seated = [make_player(f"v{seat}-") for seat in range(players)]
    table = start_table(seated, rules=rules, seed=SEED, target_score=100)
    watcher = Watcher(table, outsider)

    play_and_watch(rng, table, watcher, players, STEPS)
    for viewer in [*range(players), None]:
        watcher.events(viewer)
        watcher.view(viewer)

    # The log is consistent with the projection it was served from.
    assert engine.replay(db_log(table.id)) == db_state(table.id)


def test_finished_games_show_everything_to_everyone(
    players: list[Player], outsider: Player
) -> None:
    rng = random.Random(5)
    table = start_table(players[:3], rules={"jump_in": True}, seed=SEED)
    watcher = Watcher(table, outsider)
    play_and_watch(rng, table, watcher, 3, 25)
    ok(table.client(1).post(table.url("resign")))
    final = ok(table.client(2).post(table.url("resign")))
    assert final["status"] == "finished" and final["winner_seat"] == 0

    log = db_log(table.id)
    state = db_state(table.id)
    clients = [*(p.client for p in players[:3]), outsider.client]
    for client in clients:
        page = ok(client.get(table.url("events"), {"limit": 1000}))
        revealed = [engine.event_view(raw, None, True) for raw in log]
        assert [{k: e[k] for k in ("type", "seat", "data")} for e in page["events"]] == revealed
        view = ok(client.get(table.url()))
        assert view["revealed"] == {"draw_pile": list(state.draw_pile), "seed": SEED}
        assert [s["hand"] for s in view["seats"]] == [list(h) for h in state.hands]
        for at in (2, len(log) // 2, len(log)):
            replay = ok(client.get(table.url("replay"), {"at": at}))
            then = engine.replay(log[:at])
            assert replay["revealed"]["seed"] == SEED
            assert [s["hand"] for s in replay["seats"]] == [list(h) for h in then.hands]


# Seat 0 (staff) holds red cards and bluffs a wild-draw4 on seat 1; seat 2 watches.
BLUFF_HANDS = [
    ["wild-draw4", "red-1", "red-2", "blue-3", "blue-4", "green-5", "green-6"],
    ["yellow-1", "yellow-2", "yellow-3", "yellow-4", "yellow-5", "yellow-6", "yellow-7"],
    ["blue-1", "blue-2", "green-1", "green-2", "green-3", "green-4", "blue-5"],
]


def test_only_the_challenger_sees_the_challenged_hand(
    staff: Player, players: list[Player], outsider: Player
) -> None:
    table = deck_table(staff, players[1:3], BLUFF_HANDS, "red-9", ["blue-8", "blue-9"])
    table.act(0, "play", card="wild-draw4", color="green")
    bluffer_hand = table.hand(0)
    after = table.act(1, "challenge")
    assert after["you"]["seat"] == 1

    events = {
        seat: ok(client.get(table.url("events")))["events"]
        for seat, client in [
            (0, staff.client),
            (1, players[1].client),
            (2, players[2].client),
            (None, outsider.client),
        ]
    }
    challenged = {
        seat: next(e for e in evs if e["type"] == "challenged") for seat, evs in events.items()
    }
    assert challenged[1]["data"]["hand"] == bluffer_hand
    assert challenged[1]["data"]["guilty"] is True
    assert challenged[0]["data"]["hand"] == bluffer_hand
    assert "hand" not in challenged[2]["data"] and "hand" not in challenged[None]["data"]
    assert challenged[2]["data"]["guilty"] is True
    # The bluffer's penalty: seat 0 sees the cards it drew, the others a count.
    drawn = {
        seat: [e for e in evs if e["type"] == "cards_drawn"][-1] for seat, evs in events.items()
    }
    assert drawn[0]["data"]["cards"] == ["blue-8", "blue-9", *drawn[0]["data"]["cards"][2:]]
    for seat in (1, 2, None):
        assert "cards" not in drawn[seat]["data"] and drawn[seat]["data"]["count"] == 4
    # The challenger sees the hand once, in the log: never in a view.
    assert all("hand" not in s for s in table.view(1)["seats"])


def test_a_drawn_playable_card_is_shown_to_its_drawer_only(
    staff: Player, players: list[Player], outsider: Player
) -> None:
    hands = [
        ["blue-1", "blue-2", "blue-3", "blue-4", "green-5", "green-6", "green-7"],
        ["yellow-1", "yellow-2", "yellow-3", "yellow-4", "yellow-5", "yellow-6", "yellow-7"],
    ]
    table = deck_table(staff, players[1:2], hands, "red-9", ["red-4"])
    mine = table.act(0, "draw")
    assert mine["round"]["pending"] == {"type": "play_drawn", "seat": 0, "card": "red-4"}
    assert {"action": "play", "card": "red-4"} in mine["you"]["legal_actions"]
    theirs = table.view(1)
    assert theirs["round"]["pending"] == {"type": "play_drawn", "seat": 0}
    spectator = ok(outsider.client.get(table.url()))
    assert spectator["round"]["pending"] == {"type": "play_drawn", "seat": 0}
    assert spectator["you"] is None
    for client in (players[1].client, outsider.client):
        events = ok(client.get(table.url("events")))["events"]
        assert "red-4" not in str([e["data"] for e in events if e["type"] != "round_started"])
