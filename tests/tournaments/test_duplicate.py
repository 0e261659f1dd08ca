"""A duplicate round of 8 players at two tables of 4, with a real worker: both tables play the
same four deals (the same deck commitments), the seats rotated so each player holds each hand
once; each hand's result is compared with the other table's; the deals stay sealed until the
round ends, then verify (``games.fairness.verify_export``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.fairness import verify_export
from tests.support.players import MakePlayer, Player
from tests.support.table import game_url, ok, refused
from tests.support.tournaments import create, join_all, log_of, play_game, start_now, url, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

SIZE = 4


def points_of(places: list[int]) -> list[float]:
    size, result = len(places), []
    for place in places:
        tied = places.count(place)
        result.append(sum(size - 1 - k for k in range(place - 1, place - 1 + tied)) / tied)
    return result


def test_a_duplicate_round_plays_the_same_deals_at_both_tables(
    make_player: MakePlayer, outsider: Player, worker: Any
) -> None:
    host = make_player("host")
    people = [make_player(f"dup{i}") for i in range(8)]
    by_id = {p.id: p for p in people}
    tournament = create(host, format="duplicate", rounds=1, table_size=SIZE)
    tid = tournament["id"]
    join_all(tid, people)
    start_now(tid)
    rng = random.Random(8)
    played: set[str] = set()
    sealed_checked = False

    while True:
        detail = ok(host.client.get(url(tid)))
        if detail["status"] == "finished":
            break
        tables = detail["rounds"][0]["tables"] if detail["rounds"] else []
        todo = [t for t in tables if not t["finished"] and t["game"] not in played]
        if not todo:
            wait_for(
                lambda v=detail["version"]: ok(host.client.get(url(tid)))["version"] > v, "a step"
            )
            continue
        for table in todo:
            done = [t for t in tables if t["finished"]]
            if done and not sealed_checked:
                # A finished deal of a round still running shows no seed and no cards, to
                # anyone: the other table may be playing it.
                game = done[0]["game"]
                seated = by_id[done[0]["seats"][0]]
                view = ok(seated.client.get(game_url(game)))
                assert view["status"] == "finished" and "seed" not in view and "salt" not in view
                refused(seated.client.get(game_url(game, "export")), 409, "game_not_finished")
                refused(outsider.client.get(game_url(game)), 404, "not_found")
                sealed_checked = True
            play_game(table["game"], {p: by_id[p] for p in table["seats"]}, rng)
            played.add(table["game"])
    assert sealed_checked

    final = ok(host.client.get(url(tid)))
    (round_,) = final["rounds"]
    assert round_["revealed"] is True
    tables = round_["tables"]
    assert len(tables) == 2 * SIZE  # two tables, four deals each
    deals: dict[int, dict[int, dict[str, Any]]] = {}
    for table in tables:
        deals.setdefault(table["deal"], {})[table["table"]] = table
    assert sorted(deals) == [0, 1, 2, 3] and all(sorted(d) == [1, 2] for d in deals.values())

    views = {t["game"]: ok(host.client.get(game_url(t["game"]))) for t in tables}
    commitments = []
    for _, at in sorted(deals.items()):
        one, two = views[at[1]["game"]], views[at[2]["game"]]
        # The same committed deal at both tables: the same seed, salt and commitment.
        assert one["deck_commitment"] == two["deck_commitment"]
        assert (one["seed"], one["salt"]) == (two["seed"], two["salt"])
        commitments.append(one["deck_commitment"])
        # Revealed now: each deal's export verifies from its seed; both dealt the same cards.
        exports = [ok(host.client.get(game_url(at[n]["game"], "export"))) for n in (1, 2)]
        for export in exports:
            report = verify_export(export, seen=one["deck_commitment"])
            assert report.ok, report.text()
        first_deals = [
            next(e for e in export["events"] if e["type"] == "round_started")["data"]
            for export in exports
        ]
        assert first_deals[0] == first_deals[1]
    assert len(set(commitments)) == SIZE  # four different deals

    # Each table keeps its four players; over the deals each holds each hand (seat) once.
    for number in (1, 2):
        group = {frozenset(deals[d][number]["seats"]) for d in deals}
        assert len(group) == 1
        for player in next(iter(group)):
            held = {deals[d][number]["seats"].index(player) for d in deals}
            assert held == set(range(SIZE))
    assert not set(deals[0][1]["seats"]) & set(deals[0][2]["seats"])

    # The standings: for each deal and hand, 1 point for doing better than the other table's
    # holder of the same hand, 1/2 for a tie (placing points compared).
    expected = dict.fromkeys(by_id, 0.0)
    for at in deals.values():
        earned = {n: points_of(at[n]["places"]) for n in (1, 2)}
        for hand in range(SIZE):
            for me, other in ((1, 2), (2, 1)):
                mine, theirs = earned[me][hand], earned[other][hand]
                player = at[me]["seats"][hand]
                expected[player] += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    shown = {row["player"]: row for row in final["standings"]}
    assert {p: shown[p]["points"] for p in by_id} == expected
    assert all(shown[p]["games"] == SIZE for p in by_id)
    assert sum(expected.values()) == SIZE * SIZE  # 16 comparisons a table, 1 point each pair
    types = [e["type"] for e in log_of(tid)]
    assert types.count("round_finished") == 1 and types[-1] == "tournament_finished"
