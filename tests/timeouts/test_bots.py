"""Bots in the service (issue 13): seated at creation or by the host, they play through the same
write path as players, on a real Celery worker over the real Redis, or in-process without one;
a lost bot turn is caught up by the sweep, a racing one acts once, and ``bot_takeover`` plays on
for a seat that forfeits."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.engine.bots import choose
from games.models import Event, Game
from notifications.models import Notification
from service.player_stream import current_games
from service.tasks import bot_turn, sweep_overdue_games
from tests.support.decks import deck_for
from tests.support.players import client_for
from tests.support.timeouts import make_overdue

pytestmark = pytest.mark.django_db(transaction=True)
WAIT = 120.0  # seconds: a bound for a machine under load, not an expected duration


@pytest.fixture(autouse=True)
def no_bot_delay(settings: Any) -> None:
    settings.UNO_BOT_DELAY = 0


def _create(client: APIClient, **body: Any) -> dict[str, Any]:
    answer = client.post("/api/v1/games/", body, format="json")
    assert answer.status_code == 201, answer.json()
    return answer.json()


def _play_to_the_end(client: APIClient, game_id: str, seed: int) -> dict[str, Any]:
    """The person plays a listed action whenever it is their move; the bots do the rest."""
    rng = random.Random(seed)
    end = time.monotonic() + WAIT
    while True:
        view = client.get(f"/api/v1/games/{game_id}/").json()
        if view["status"] != "active":
            return view
        assert time.monotonic() < end, "the game did not end in time"
        pending = view["round"]["pending"]
        actor = pending["seat"] if pending else view["round"]["current_seat"]
        if actor != view["you"]["seat"]:
            time.sleep(0.02)  # the worker's thread plays the bots' turns
            continue
        action = {**choose(rng, view["you"]["legal_actions"]), "expected_version": view["version"]}
        answer = client.post(f"/api/v1/games/{game_id}/actions/", action, format="json")
        assert answer.status_code in (200, 409), answer.json()


def test_one_person_and_three_bots_of_every_level_play_to_the_end(
    players: list[User], worker: Any
) -> None:
    client = client_for(players[0])
    view = _create(client, max_players=4, target_score=60, bots=["random", "basic", "strong"])
    assert view["status"] == "active"  # the creator and the bots fill it: it starts at once
    assert [seat.get("bot") for seat in view["seats"]] == [None, "random", "basic", "strong"]
    assert all(seat["player"]["username"] for seat in view["seats"])
    final = _play_to_the_end(client, view["id"], seed=1)
    assert final["status"] == "finished"
    assert final["winner_seat"] is not None
    seats_that_moved = set(
        Event.objects.filter(game_id=view["id"], type__in=["card_played", "cards_drawn"])
        .values_list("seat", flat=True)
        .distinct()
    )
    assert {1, 2, 3} <= seats_that_moved
    assert not Event.objects.filter(game_id=view["id"], type="timed_out").exists()


def test_without_a_broker_bots_play_in_process(players: list[User]) -> None:
    client = client_for(players[0])
    view = _create(client, max_players=3, target_score=40, bots=["basic", "strong"])
    final = _play_to_the_end(client, view["id"], seed=2)
    assert final["status"] == "finished"


def test_the_host_seats_bots_and_a_full_game_starts(players: list[User]) -> None:
    host, other = client_for(players[0]), client_for(players[1])
    view = _create(host, max_players=3)
    url = f"/api/v1/games/{view['id']}/bots/"
    refused = host.post(url, {"level": "genius"}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "invalid"
    assert other.post(url, {"level": "basic"}, format="json").json()["code"] == "not_a_player"
    assert other.post(f"/api/v1/games/{view['id']}/join/").status_code == 200
    assert other.post(url, {"level": "basic"}, format="json").status_code == 403
    answer = host.post(url, {"level": "strong"}, format="json")
    assert answer.status_code == 200
    started = answer.json()
    assert started["status"] == "active"
    assert started["seats"][2]["bot"] == "strong" and "bot" not in started["seats"][1]
    full = host.post(url, {"level": "basic"}, format="json")
    assert full.status_code == 409 and full.json()["code"] == "game_full"
    listed = host.get("/api/v1/games/?mine=true").json()["results"][0]
    assert listed["seats"][2]["bot"] == "strong"


def test_bots_cannot_sign_in_and_show_in_profiles(players: list[User]) -> None:
    client = client_for(players[0])
    view = _create(client, max_players=3, bots=["basic"])
    bot = view["seats"][1]["player"]
    answer = APIClient().post(
        "/api/v1/auth/token/", {"username": bot["username"], "password": ""}, format="json"
    )
    assert answer.status_code == 400
    profile = client.get(f"/api/v1/players/{bot['id']}/").json()
    assert profile["bot"] == "basic"
    assert "bot" not in client.get("/api/v1/players/me/").json()


def test_a_bot_turn_delivered_twice_acts_once_and_a_stale_one_not_at_all(
    players: list[User], broker: Any
) -> None:
    """With a broker but no worker, the declared bot turn waits in Redis: run it by hand."""
    client = client_for(players[0])
    view = _create(client, max_players=2, bots=["basic"])
    game = Game.objects.get(pk=view["id"])
    if game.current_seat == 0:  # the person moves first: move so that the bot must act
        action = choose(random.Random(3), client.get(f"/api/v1/games/{game.pk}/").json())
        answer = client.post(f"/api/v1/games/{game.pk}/actions/", action, format="json")
        assert answer.status_code == 200
        game.refresh_from_db()
    if game.current_seat == 0:
        pytest.skip("the bot lost its turn at once (a skip): nothing for it to do")
    version = game.version
    results = [bot_turn(str(game.pk), version), bot_turn(str(game.pk), version)]
    assert results == [True, False]
    game.refresh_from_db()
    assert game.version > version


def test_a_lost_bot_turn_is_played_by_the_sweep(players: list[User], broker: Any) -> None:
    client = client_for(players[0])
    view = _create(client, max_players=2, bots=["basic"])
    game = Game.objects.get(pk=view["id"])
    while game.current_seat == 0 and game.status == "active":
        action = choose(random.Random(game.version), client.get(f"/api/v1/games/{game.pk}/").json())
        client.post(f"/api/v1/games/{game.pk}/actions/", action, format="json")
        game.refresh_from_db()
    version = game.version
    make_overdue(game)  # as if the bot's grace had passed with its task lost
    assert sweep_overdue_games() >= 1
    game.refresh_from_db()
    assert game.version > version
    assert not Event.objects.filter(game=game, type="timed_out").exists()


def test_with_bot_takeover_a_resigned_seat_is_played_on_by_a_basic_bot(
    players: list[User],
) -> None:
    first, second, third = (client_for(p) for p in players[:3])
    view = _create(first, max_players=3, bot_takeover=True, target_score=30)
    assert view["settings"]["bot_takeover"] is True
    for client in (second, third):
        assert client.post(f"/api/v1/games/{view['id']}/join/").status_code == 200
    assert second.post(f"/api/v1/games/{view['id']}/resign/").status_code == 200
    after = first.get(f"/api/v1/games/{view['id']}/").json()
    assert after["seats"][1]["bot"] == "basic" and after["seats"][1]["status"] == "playing"
    refused = second.post(f"/api/v1/games/{view['id']}/actions/", {"action": "draw"}, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "not_a_player"
    assert not Event.objects.filter(game_id=view["id"], type="forfeited").exists()


def test_a_seat_left_to_a_bot_is_an_event_the_log_and_the_replay_show(
    players: list[User],
) -> None:
    """A resignation under ``bot_takeover`` appended no event: the version stood still (streams
    and long polls were not told), and a replay showed the seat as the bot's from the start."""
    first, second, third = (client_for(p) for p in players[:3])
    view = _create(first, max_players=3, bot_takeover=True, target_score=500)
    game = view["id"]
    for client in (second, third):
        assert client.post(f"/api/v1/games/{game}/join/").status_code == 200
    before = first.get(f"/api/v1/games/{game}/").json()
    leaving = next(s for s in (1, 2) if s != before["round"]["current_seat"])  # off its turn
    leaver = (first, second, third)[leaving]
    assert leaver.post(f"/api/v1/games/{game}/resign/").status_code == 200

    after = first.get(f"/api/v1/games/{game}/").json()
    assert after["version"] == before["version"] + 1
    log = first.get(f"/api/v1/games/{game}/events/?after={before['version']}").json()["events"]
    assert [(e["type"], e["seat"], e["data"]) for e in log] == [
        ("seat_taken_over", leaving, {"reason": "resign"})
    ]
    then = first.get(f"/api/v1/games/{game}/replay/?at={before['version']}").json()
    now = first.get(f"/api/v1/games/{game}/replay/?at={after['version']}").json()
    assert "bot" not in then["seats"][leaving] and now["seats"][leaving]["bot"] == "basic"
    assert then["seats"][leaving]["player"] == now["seats"][leaving]["player"]


def test_a_player_who_left_a_seat_to_a_bot_watches_as_a_spectator(players: list[User]) -> None:
    """Once a bot plays on for them, a resigned player saw the seat's hand and the cards the bot
    drew (theirs to tell a partner or an opponent), was listed actions the server refused, and
    was told "your turn" whenever the bot had to move."""
    first, second, third, outsider = (client_for(p) for p in players)
    view = _create(first, max_players=3, bot_takeover=True, target_score=500)
    game = view["id"]
    for client in (second, third):
        assert client.post(f"/api/v1/games/{game}/join/").status_code == 200
    assert second.post(f"/api/v1/games/{game}/resign/").status_code == 200
    resigned_at = Game.objects.get(pk=game).version

    rng, by_seat = random.Random(5), {0: first, 2: third}
    for _ in range(40):  # the bot's moves follow each person's at once (tasks run in-process)
        view = first.get(f"/api/v1/games/{game}/").json()
        if view["status"] != "active":
            break
        pending = view["round"]["pending"]
        actor = pending["seat"] if pending else view["round"]["current_seat"]
        mover = by_seat[actor]
        legal = mover.get(f"/api/v1/games/{game}/").json()["you"]["legal_actions"]
        answer = mover.post(f"/api/v1/games/{game}/actions/", choose(rng, legal), format="json")
        assert answer.status_code == 200, answer.json()

    seen = second.get(f"/api/v1/games/{game}/").json()
    assert seen["you"] is None, seen["you"]
    assert seen["seats"][1]["bot"] == "basic" and "hand" not in seen["seats"][1]
    assert Event.objects.filter(game_id=game, seat=1, seq__gt=resigned_at).exists()
    log = f"/api/v1/games/{game}/events/?after=0&limit=1000"
    assert second.get(log).json()["events"] == outsider.get(log).json()["events"]
    replay = f"/api/v1/games/{game}/replay/?at={resigned_at + 1}"
    assert second.get(replay).json() == outsider.get(replay).json()
    turns = Notification.objects.filter(kind="your_turn", version__gt=resigned_at)
    assert not turns.filter(player=players[1]).exists()
    assert turns.filter(player=players[0]).exists() and turns.filter(player=players[2]).exists()


def test_the_last_timeout_before_a_takeover_is_a_timeout_of_its_own(
    players: list[User], broker: Any
) -> None:
    """With ``bot_takeover`` the last timeout wrote no ``timed_out``: the bot played the seat's
    move at once, and the log said the absent player had played. It is a timeout now (the move
    made for the seat, as every timeout), and the bot plays on from the seat's next turn."""
    first, second = client_for(players[0]), client_for(players[1])
    view = _create(first, max_players=2, bot_takeover=True, max_timeouts=1, target_score=500)
    assert second.post(f"/api/v1/games/{view['id']}/join/").status_code == 200
    game = Game.objects.get(pk=view["id"])
    idle, version = game.current_seat, game.version
    assert idle is not None
    make_overdue(game)

    assert sweep_overdue_games() == 1

    after = list(Event.objects.filter(game=game, seq__gt=version).order_by("seq"))
    assert (after[0].type, after[0].seat, after[0].data) == ("timed_out", idle, {"count": 1})
    assert after[1].seat == idle and after[1].data.get("auto") is True  # the move made for it
    assert not [e for e in after if e.type in ("forfeited", "card_played")]
    # The log then says a bot took the seat over, after the move made for it.
    taken = [(e.seat, e.data) for e in after if e.type == "seat_taken_over"]
    assert taken == [(idle, {"reason": "timeout"})]
    assert after[-1].type == "seat_taken_over"
    game.refresh_from_db()
    assert game.status == "active" and game.roster[idle]["bot"] == "basic"
    assert game.seats.get(number=idle).status == "playing"


def test_a_seat_a_bot_plays_on_is_not_listed_as_its_players_turn(
    players: list[User], broker: Any
) -> None:
    """While the bot that took over a resigned player's seat has its move to make (its turn
    waits in Redis: no worker), the player's list of games waiting for them, and their player
    stream's opening snapshot, said it was their turn, in a game they left."""
    first, second = client_for(players[0]), client_for(players[1])
    view = _create(first, max_players=2, bot_takeover=True, target_score=500)
    assert second.post(f"/api/v1/games/{view['id']}/join/").status_code == 200
    assert second.post(f"/api/v1/games/{view['id']}/resign/").status_code == 200
    game = Game.objects.get(pk=view["id"])
    rng = random.Random(11)
    for _ in range(20):  # seat 0 moves until the bot must (a skip or a reverse keeps the turn)
        if game.current_seat == 1 or game.status != "active":
            break
        legal = first.get(f"/api/v1/games/{game.pk}/").json()["you"]["legal_actions"]
        answer = first.post(f"/api/v1/games/{game.pk}/actions/", choose(rng, legal), format="json")
        assert answer.status_code == 200, answer.json()
        game.refresh_from_db()
    assert game.status == "active" and game.current_seat == 1

    waiting = second.get("/api/v1/games/", {"my_turn": "true"}).json()
    assert waiting["count"] == 0, waiting
    assert [g["id"] for g in second.get("/api/v1/games/", {"mine": "true"}).json()["results"]] == [
        view["id"]
    ]
    games, _ = current_games(players[1].pk)
    assert [(g["id"], g["my_turn"]) for g in games] == [(view["id"], False)]
    # The other player's own turn is listed as theirs, once the bot has moved.
    assert bot_turn(str(game.pk), game.version)
    game.refresh_from_db()
    if game.current_seat == 0:
        assert first.get("/api/v1/games/", {"my_turn": "true"}).json()["count"] == 1


def _staff_game(
    hands: list[list[str]], starter: str, rules: dict[str, Any], bots: list[str]
) -> tuple[APIClient, dict[str, Any]]:
    """A game dealt from a given deck: a staff person at seat 0, ``bots`` in the other seats."""
    staff = User.objects.create_user(username="boss", password=None, is_staff=True)
    client = client_for(staff)
    body = {"max_players": len(hands), "rules": rules, "bots": bots}
    view = _create(client, **body, deck=deck_for(hands, starter))
    assert view["status"] == "active"
    return client, view


def _events(game_id: str, kind: str) -> list[Event]:
    return list(Event.objects.filter(game_id=game_id, type=kind).order_by("seq"))


def test_a_bot_catches_a_person_who_did_not_say_uno(players: list[User]) -> None:
    # Two players: every skip gives seat 0 another turn, so the bot never has one of its own.
    skips = ["red-skip", "red-skip", "yellow-skip", "yellow-skip", "green-skip", "green-skip"]
    hands = [
        [*skips, "blue-5"],
        ["blue-1", "blue-2", "blue-3", "blue-4", "blue-6", "blue-7", "blue-8"],
    ]
    client, view = _staff_game(hands, "red-3", {}, ["basic"])
    url = f"/api/v1/games/{view['id']}/actions/"
    for card in skips:
        answer = client.post(url, {"action": "play", "card": card}, format="json")
        assert answer.status_code == 200, answer.json()
    # The last skip left one card and no UNO said: the bot caught it, off its turn.
    caught = _events(view["id"], "uno_caught")
    assert [(e.seat, e.data["target"]) for e in caught] == [(1, 0)]
    after = client.get(f"/api/v1/games/{view['id']}/").json()
    assert len(after["you"]["hand"]) == 1 + 2  # the UNO penalty


JUMP_HANDS = [
    ["red-5", "green-1", "green-2", "green-3", "green-4", "green-6", "green-7"],
    ["blue-1", "blue-2", "blue-3", "blue-4", "blue-6", "blue-7", "blue-8"],
    ["red-5", "yellow-1", "yellow-2", "yellow-3", "yellow-4", "yellow-6", "yellow-7"],
]


def _plays_after_red_5(levels: list[str]) -> list[tuple[int | None, list[str], bool]]:
    """Seat 0 plays red-5 (seat 1 is to move next; seat 2 holds the other red-5)."""
    client, view = _staff_game(JUMP_HANDS, "red-3", {"jump_in": True}, levels)
    answer = client.post(
        f"/api/v1/games/{view['id']}/actions/", {"action": "play", "card": "red-5"}, format="json"
    )
    assert answer.status_code == 200, answer.json()
    return [
        (e.seat, e.data["cards"], e.data.get("jump_in", False))
        for e in _events(view["id"], "card_played")
    ]


def test_a_basic_bot_jumps_in_before_the_seat_to_move(players: list[User]) -> None:
    played = _plays_after_red_5(["random", "basic"])
    assert played[:2] == [(0, ["red-5"], False), (2, ["red-5"], True)]


def test_a_random_bot_never_jumps_in(players: list[User]) -> None:
    played = _plays_after_red_5(["basic", "random"])
    assert played[0] == (0, ["red-5"], False)
    assert not [seat for seat, _, jumped in played if jumped and seat == 2]
