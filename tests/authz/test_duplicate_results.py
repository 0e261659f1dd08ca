"""A duplicate round's results wait for its reveal, as its games do: every table plays a deal
with the same cards by seat, so the places (or the winner) of a table that finished a deal, told
while another table still plays it, say how strong each seat's hand is. The detail (its tables'
``places``, its standings) and the public stream (``table_finished``) told them at once."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tests.support.players import MakePlayer, Player
from tests.support.table import ok
from tests.support.tournaments import create, join_all, play_game, start_now, url

pytestmark = pytest.mark.django_db(transaction=True)  # the steps follow the games' commits


def streamed_results(player: Player, tournament_id: str) -> list[dict[str, Any]]:
    """The ``table_finished`` entries of the tournament's stream, from its first entry."""
    answer = player.client.get(
        url(tournament_id, "stream"), {"after": 0}, HTTP_ACCEPT="text/event-stream"
    )
    assert answer.status_code == 200
    text = b"".join(getattr(answer, "streaming_content", [])).decode()
    messages = [json.loads(line[6:]) for line in text.splitlines() if line.startswith("data: ")]
    # A finished tournament's stream ends with stream_ended, whose data is no entry.
    return [entry["data"] for entry in messages if entry.get("type") == "table_finished"]


def test_a_duplicate_deals_places_are_told_once_its_round_is_revealed(
    make_player: MakePlayer,
) -> None:
    host, *people = (make_player(f"d{i}") for i in range(5))
    by_id = {p.id: p for p in people}
    tid = create(host, format="duplicate", table_size=2, rounds=1)["id"]
    join_all(tid, people)
    start_now(tid)
    rng = random.Random(5)
    first, other = ok(host.client.get(url(tid)))["rounds"][0]["tables"]
    play_game(first["game"], {p: by_id[p] for p in first["seats"]}, rng)

    # The other table still plays the same deal: nothing of the first table's result is told.
    detail = ok(host.client.get(url(tid)))
    tables = {t["game"]: t for t in detail["rounds"][0]["tables"]}
    assert tables[first["game"]]["finished"] and not tables[other["game"]]["finished"]
    assert tables[first["game"]]["places"] is None
    assert all(
        (row["games"], row["wins"], row["points"]) == (0, 0, 0) for row in detail["standings"]
    )
    (told,) = streamed_results(host, tid)
    assert told["game"] == first["game"] and "places" not in told and "winner" not in told

    while (detail := ok(host.client.get(url(tid))))["status"] != "finished":
        for table in detail["rounds"][0]["tables"]:
            if not table["finished"]:
                play_game(table["game"], {p: by_id[p] for p in table["seats"]}, rng)
    assert detail["rounds"][0]["revealed"] is True
    assert all(t["places"] is not None for t in detail["rounds"][0]["tables"])
    assert sum(row["games"] for row in detail["standings"]) == 4 * 2  # 2 deals at 2 tables of 2
    results = streamed_results(host, tid)
    assert len(results) == 4 and all("places" in r and "winner" in r for r in results)
