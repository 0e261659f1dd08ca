"""A 4-round Swiss tournament of 7 people at tables of 4 (a basic bot filling the short table),
played to its end through the API with a real Celery worker: the worker starts it, pairs each
round when the last table of the one before finishes, and ends it. Every pairing rule and the
standings are checked against a recomputation from the games' results."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.models import Tournament
from games.pairing import repeats, swiss_tables, table_sizes
from notifications.models import Notification
from players.models import Rating
from tests.support.pairing import fewest_repeats
from tests.support.players import MakePlayer, Player
from tests.support.table import game_url, ok
from tests.support.tournaments import create, join_all, log_of, play_game, start_now, url, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

ROUNDS, SIZE, PEOPLE = 4, 4, 7


def places_of(view: dict[str, Any]) -> list[int]:
    """A finished game's places by seat, recomputed from its view: the winner first, then the
    others by score, then those who forfeited (in the reverse order of forfeiting; one round
    here, so no forfeits are expected); equal scores share."""
    assert all(s["status"] != "forfeited" for s in view["seats"])
    winner = view["winner_seat"]
    key = {s["seat"]: (0, 0) if s["seat"] == winner else (1, -s["score"]) for s in view["seats"]}
    ordered = sorted(key, key=key.__getitem__)
    return [1 + sum(1 for other in ordered if key[other] < key[seat]) for seat in sorted(key)]


def points_of(places: list[int]) -> list[float]:
    """First: seats - 1, last: 0; tied seats share the points of the places they fill."""
    size, result = len(places), []
    for place in places:
        tied = places.count(place)
        filled = range(place - 1, place - 1 + tied)
        result.append(sum(size - 1 - k for k in filled) / tied)
    return result


def test_a_swiss_tournament_of_seven_plays_to_its_end(make_player: MakePlayer, worker: Any) -> None:
    host = make_player("host")
    people = [make_player(f"sw{i}") for i in range(PEOPLE)]
    by_id: dict[int, Player] = {p.id: p for p in people}
    tournament = create(host, name="Swiss of seven", rounds=ROUNDS, table_size=SIZE)
    tid = tournament["id"]
    join_all(tid, people)
    start_now(tid)  # the start's task: the worker seats the first round
    rng = random.Random(26)

    for number in range(1, ROUNDS + 1):
        detail = wait_for(
            lambda n=number: (d := ok(host.client.get(url(tid))))["round"] == n and d,
            f"round {number}",
        )
        assert detail["status"] == "running"
        for table in detail["rounds"][number - 1]["tables"]:
            at_table = {p: by_id[p] for n, p in enumerate(table["seats"]) if n not in table["bots"]}
            # The tables' players see their table in the detail, and were told of it.
            for person in at_table.values():
                assert ok(person.client.get(url(tid)))["you"]["table"] in {
                    t["game"] for t in detail["rounds"][number - 1]["tables"]
                }
                assert Notification.objects.filter(
                    player=person.user, kind="tournament_table", data__game=table["game"]
                ).exists()
            play_game(table["game"], at_table, rng)

    final = wait_for(
        lambda: (d := ok(host.client.get(url(tid))))["status"] == "finished" and d, "the end"
    )
    assert len(final["rounds"]) == ROUNDS

    # --- the pairings: everyone once a round, tables of the table size, as few repeats as any
    # seating has, in standing order as the standings stood then (recomputed below).
    entries = log_of(tid)
    paired = [e["data"] for e in entries if e["type"] == "round_paired"]
    assert [p["round"] for p in paired] == list(range(1, ROUNDS + 1))
    met: dict[int, set[int]] = {p: set() for p in by_id}
    points: dict[int, float] = dict.fromkeys(by_id, 0.0)
    games: dict[int, int] = dict.fromkeys(by_id, 0)
    opponents: dict[int, list[int]] = {p: [] for p in by_id}
    for pairing in paired:
        order = pairing["order"]
        assert sorted(order) == sorted(by_id)
        standing = [(points[p], sum(points[o] for o in opponents[p])) for p in order]
        assert standing == sorted(standing, reverse=True), "paired in standing order"
        tables = pairing["tables"]
        people_at = [[p for n, p in enumerate(t["seats"]) if n not in t["bots"]] for t in tables]
        assert sorted(p for table in people_at for p in table) == sorted(by_id)
        assert all(len(t["seats"]) == SIZE for t in tables)
        assert sorted(len(t) for t in people_at) == sorted(table_sizes(PEOPLE, SIZE))
        assert sum(len(t["bots"]) for t in tables) == len(tables) * SIZE - PEOPLE
        assert repeats(people_at, met) == fewest_repeats(order, table_sizes(PEOPLE, SIZE), met)
        assert people_at == swiss_tables(order, SIZE, met)
        # The round's results, recomputed from the finished games' views.
        for table, seated in zip(tables, people_at, strict=True):
            view = ok(host.client.get(game_url(table["game"])))
            assert view["status"] == "finished"
            earned = points_of(places_of(view))
            for seat, player in enumerate(table["seats"]):
                if player in by_id:
                    points[player] += earned[seat]
                    games[player] += 1
                    opponents[player].extend(p for p in seated if p != player)
        for table in people_at:
            for player in table:
                met[player].update(p for p in table if p != player)

    # --- the standings, against the recomputation: points, then opponents' points, then rating.
    shown = {row["player"]: row for row in final["standings"]}
    for player in by_id:
        assert shown[player]["points"] == points[player]
        assert shown[player]["tiebreak"] == sum(points[o] for o in opponents[player])
        assert shown[player]["games"] == games[player] == ROUNDS
    keys = [(r["points"], r["tiebreak"], r["rating"]) for r in final["standings"]]
    assert keys == sorted(keys, reverse=True)
    assert entries[-1]["type"] == "tournament_finished"
    assert entries[-1]["data"]["standings"] == final["standings"]
    # Rated like any game; told of the start and of the end.
    for player in people:
        assert Rating.objects.get(user=player.user).games_played == ROUNDS
        kinds = set(Notification.objects.filter(player=player.user).values_list("kind", flat=True))
        assert {"tournament_starting", "tournament_table", "tournament_finished"} <= kinds
    assert Tournament.objects.get(pk=tid).status == "finished"
    # Nothing the tournament shows holds a card.
    assert "hand" not in str(final) and "cards" not in str(final)
