"""Time without a worker (the lazy path), forfeits, resignations and the correspondence inbox."""

from __future__ import annotations

import pickle
from datetime import datetime, timedelta
from typing import Any, cast

import pytest
from django.utils import timezone

from games import engine
from games.models import Event, Game
from service.lobby import NewGame, game_create
from service.tasks import sweep_overdue_games
from tests.support.cards import assert_every_card_accounted
from tests.support.players import client_for
from tests.support.timeouts import make_overdue, started_game
from unoservice.errors import DomainError

pytestmark = pytest.mark.django_db


def types_after(game: Game, version: int) -> list[str]:
    return list(
        Event.objects.filter(game=game, seq__gt=version)
        .order_by("seq")
        .values_list("type", flat=True)
    )


def test_a_read_after_the_deadline_applies_the_timeout_first(players: Any) -> None:
    game = started_game(players[:2], turn_timeout=3600)
    idle, version = game.current_seat, game.version
    make_overdue(game)

    view = client_for(players[1]).get(f"/api/v1/games/{game.pk}/").json()

    assert types_after(game, version)[:3] == ["timed_out", "cards_drawn", "turn_changed"]
    assert view["version"] > version
    assert view["round"]["current_seat"] != idle
    assert view["seats"][idle]["timeouts"] == 1
    deadline = datetime.fromisoformat(view["round"]["turn_deadline"])
    assert deadline > timezone.now()


def test_a_late_timeout_gives_the_next_seat_its_whole_turn(players: Any) -> None:
    """A turn ten minutes overdue (a lost task, an outage) times out once: the next seat's turn
    starts then, with its whole time. It had started at the missed deadline, so the next seats
    timed out one after another, never told of their turns, until seat 0 forfeited."""
    game = started_game(players[:2], turn_timeout=60, max_timeouts=3)
    first = game.current_seat
    assert first is not None
    make_overdue(game, by=timedelta(minutes=10))

    before = timezone.now()
    view = client_for(players[0]).get(f"/api/v1/games/{game.pk}/").json()

    timed_out = list(Event.objects.filter(game=game, type="timed_out").order_by("seq"))
    assert [e.seat for e in timed_out] == [first]
    assert view["status"] == "active"
    game.refresh_from_db()
    assert game.current_seat == 1 - first
    assert game.turn_deadline is not None
    assert game.turn_deadline >= before + timedelta(seconds=60)


def test_timeouts_in_a_row_forfeit_the_seat(players: Any) -> None:
    """Each turn run out in turn: the third of seat 0 in a row forfeits it, and the game ends."""
    game = started_game(players[:2], turn_timeout=60, max_timeouts=3)
    first = game.current_seat
    assert first is not None
    for _ in range(5):
        make_overdue(game, by=timedelta(minutes=1))
        view = client_for(players[0]).get(f"/api/v1/games/{game.pk}/").json()
        game.refresh_from_db()

    timed_out = list(Event.objects.filter(game=game, type="timed_out").order_by("seq"))
    assert [e.seat for e in timed_out] == [first, 1 - first, first, 1 - first, first]
    assert [e.data["count"] for e in timed_out] == [1, 1, 2, 2, 3]
    assert view["status"] == "finished"
    assert view["winner_seat"] == 1 - first
    assert view["seats"][first]["status"] == "forfeited"
    assert types_after(game, timed_out[-1].seq)[-2:] == ["forfeited", "game_ended"]


def test_an_action_after_the_deadline_meets_the_timeout_first(players: Any) -> None:
    game = started_game(players[:2], turn_timeout=3600)
    idle = game.current_seat
    assert idle is not None
    make_overdue(game)

    response = client_for(players[idle]).post(
        f"/api/v1/games/{game.pk}/actions/", {"action": "draw"}, format="json"
    )

    assert response.status_code == 409
    assert response.json()["code"] == "not_your_turn"
    # It says why (it said only whose move it was).
    assert response.json()["detail"].startswith("Your time ran out: the server moved for you")
    assert types_after(game, 0).count("timed_out") == 1
    # A refusal at a moment the other seat's time ran out says nothing of it: not theirs.
    make_overdue(game)  # the other seat's turn now
    other = client_for(players[idle]).post(
        f"/api/v1/games/{game.pk}/actions/", {"action": "challenge"}, format="json"
    )
    assert types_after(game, 0).count("timed_out") == 2
    assert other.status_code in (409, 422) and "time ran out" not in other.json()["detail"]


def test_acting_resets_the_count_of_timeouts(players: Any) -> None:
    game = started_game(players[:2], turn_timeout=3600)
    seat = game.current_seat
    assert seat is not None
    make_overdue(game)
    client = client_for(players[1 - seat])
    view = client.get(f"/api/v1/games/{game.pk}/").json()
    assert view["seats"][seat]["timeouts"] == 1
    # the other seat acts; later seat 0 acts itself and its count goes back to 0
    view = client.post(
        f"/api/v1/games/{game.pk}/actions/", {"action": "draw"}, format="json"
    ).json()
    if view["round"]["pending"]:
        view = client.post(
            f"/api/v1/games/{game.pk}/actions/", {"action": "pass"}, format="json"
        ).json()
    own = client_for(players[seat])
    view = own.post(f"/api/v1/games/{game.pk}/actions/", {"action": "draw"}, format="json").json()
    assert view["seats"][seat]["timeouts"] == 0


def test_resigning_a_two_player_game_ends_it(players: Any) -> None:
    game = started_game(players[:2])
    response = client_for(players[0]).post(f"/api/v1/games/{game.pk}/resign/")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "finished"
    assert body["winner_seat"] == 1
    assert body["seats"][0]["status"] == "forfeited"
    assert types_after(game, 0)[-2:] == ["forfeited", "game_ended"]


def test_a_resigned_seat_is_skipped_and_its_cards_go_back(players: Any) -> None:
    game = started_game(players[:3])
    response = client_for(players[1]).post(f"/api/v1/games/{game.pk}/resign/")
    body = response.json()
    assert body["status"] == "active"
    assert body["seats"][1] == {**body["seats"][1], "status": "forfeited", "hand_count": 0}
    game.refresh_from_db()
    state = engine.replay(
        {"type": e.type, "seat": e.seat, "data": e.data}
        for e in Event.objects.filter(game=game).order_by("seq")
    )
    assert_every_card_accounted(state)
    assert state.actor != 1
    again = client_for(players[1]).post(f"/api/v1/games/{game.pk}/resign/")
    assert again.status_code == 403
    assert again.json()["code"] == "not_a_player"


def test_resigning_a_waiting_game_is_refused(players: Any) -> None:
    client = client_for(players[0])
    game_id = client.post("/api/v1/games/", {"max_players": 3}, format="json").json()["id"]
    response = client.post(f"/api/v1/games/{game_id}/resign/")
    assert response.status_code == 409
    assert response.json()["code"] == "game_not_active"


def test_my_turn_lists_the_games_waiting_for_me_most_urgent_first(players: Any) -> None:
    me = players[0]
    games = [started_game([me, players[1]], turn_timeout=t) for t in (7200, 600, 3600)]
    waiting_on_me = [g for g in games if g.current_seat == 0]
    other = started_game([players[2], players[3]])  # not mine at all

    body = client_for(me).get("/api/v1/games/?my_turn=true").json()

    ids = [g["id"] for g in body["results"]]
    expected = sorted(waiting_on_me, key=lambda g: cast(datetime, g.turn_deadline))
    assert ids == [str(g.pk) for g in expected]
    assert str(other.pk) not in ids
    assert all(g["turn_deadline"] for g in body["results"])


def test_a_game_whose_timeout_fails_does_not_stop_the_sweep(players: Any) -> None:
    """One broken game (its timeout raises) had the earliest deadline, came first in every batch
    and stopped the sweep for every other game: none timed out while it was there."""
    broken = game_create(player=players[2], spec=NewGame(max_players=3))
    Game.objects.filter(pk=broken.pk).update(
        status="active", turn_deadline=timezone.now() - timedelta(hours=1)
    )
    game = started_game(players[:2], turn_timeout=3600)
    make_overdue(game)

    assert sweep_overdue_games() == 1
    assert types_after(game, 0).count("timed_out") == 1
    error = DomainError("not_found", "No such game.", {"fields": {}})
    again = pickle.loads(pickle.dumps(error))  # a task's failure travels pickled
    assert (again.code, again.detail, again.extra) == (error.code, error.detail, error.extra)
