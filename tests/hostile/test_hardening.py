"""The holes of issue 11 ("Hardening"), each reproduced as an outside attacker found it.

Each test here failed before its fix. The deployment's parts (nginx in front of gunicorn, the
admin's login, static files with debug off) are tested in tests/ops; this file holds what an API
client can do.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import IntegrityError, connection, transaction
from django.db.backends.signals import connection_created
from django.utils import timezone
from pytest_django.fixtures import Settings
from rest_framework.test import APIClient

from games import engine
from games.engine.snapshot import state_from_data
from games.models import Game
from service import longpoll
from service.lobby import NewGame, game_create, game_join
from tests.support.players import client_for
from tests.support.table import GAMES, Table, game_url, refused

# --- 1. a seed from a player predicts every shuffle ----------------------------------------------


@pytest.fixture
def production_seeds(settings: Settings) -> None:
    """The production rule (the rest of the suite lets players give seeds, to reproduce games)."""
    settings.UNO_SEEDS_FROM_PLAYERS = False


def make_user(name: str, *, staff: bool = False) -> User:
    return User.objects.create_user(name, password=None, is_staff=staff)


def test_a_player_may_not_choose_the_seed(db: None, production_seeds: None) -> None:
    """With a seed of their choosing, a creator knows every hand dealt (the log of a finished game
    with that seed shows its deck) and can search seeds for a good hand."""
    mallory = client_for(make_user("mallory"))

    body = refused(
        mallory.post(GAMES, {"max_players": 2, "seed": 7}, format="json"), 403, "permission_denied"
    )

    assert body["code"] == "permission_denied"
    assert not Game.objects.exists(), "nothing was created"


def test_staff_may_still_reproduce_a_game(db: None, production_seeds: None) -> None:
    boss = client_for(make_user("boss", staff=True))

    answer = boss.post(GAMES, {"max_players": 2, "seed": 7}, format="json")

    assert answer.status_code == 201, answer.content
    assert Game.objects.get(pk=answer.json()["id"]).seed == 7


def test_without_a_seed_a_player_gets_a_secret_one(db: None, production_seeds: None) -> None:
    mallory = client_for(make_user("mallory"))

    answers: list[Any] = [mallory.post(GAMES, {"max_players": 2}, format="json") for _ in range(2)]

    assert [a.status_code for a in answers] == [201, 201]
    seeds = {Game.objects.get(pk=a.json()["id"]).seed for a in answers}
    assert len(seeds) == 2


# --- 6. racing registrations beat the case-insensitive username rule ----------------------------

REGISTER = "/api/v1/players/"
PASSWORD = "a sturdy pass phrase 42"


def test_the_database_refuses_a_username_that_differs_only_in_case(db: None) -> None:
    User.objects.create_user("RaceName", password=None)

    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user("racename", password=None)


@pytest.mark.django_db(transaction=True)
def test_racing_registrations_of_one_name_make_one_player() -> None:
    names = ["RaceName", "racename", "RACENAME", "raceName", "Racename", "rAcEnAmE"]
    barrier = threading.Barrier(len(names))

    def register(name: str) -> tuple[int, Any]:
        try:
            barrier.wait(timeout=30)
            answer = APIClient().post(
                REGISTER, {"username": name, "password": PASSWORD}, format="json"
            )
            return answer.status_code, answer.json()
        finally:
            connection.close()

    with ThreadPoolExecutor(len(names)) as pool:
        answers = list(pool.map(register, names))

    statuses = sorted(status for status, _ in answers)
    assert statuses == [201] + [409] * (len(names) - 1), answers
    assert {body["code"] for status, body in answers if status == 409} == {"username_taken"}
    assert User.objects.filter(username__iexact="racename").count() == 1


# --- 9. chunked request bodies were read as empty -----------------------------------------------


def chunked_post(client: APIClient, url: str, payload: dict[str, Any]) -> Any:
    """A body as a WSGI server hands over a chunked one: the bytes, and no Content-Length."""
    body = json.dumps(payload).encode()
    return client.generic(
        "POST",
        url,
        body,  # type: ignore[arg-type]  # the stubs say str; Django's generic takes bytes as well
        content_type="application/json",
        HTTP_TRANSFER_ENCODING="chunked",
        CONTENT_LENGTH="",
    )


def test_a_chunked_action_is_refused_as_such_not_read_as_empty(table: Table) -> None:
    before = table.snapshot()

    body = refused(
        chunked_post(table.actor_client(), table.url("actions"), {"action": "draw"}),
        411,
        "length_required",
    )

    assert body["code"] == "length_required" and "Content-Length" in body["detail"]
    assert table.snapshot() == before


def test_a_chunked_registration_is_refused_too(db: None) -> None:
    answer = chunked_post(APIClient(), REGISTER, {"username": "chunky", "password": PASSWORD})

    assert refused(answer, 411, "length_required")["code"] == "length_required"
    assert not User.objects.filter(username="chunky").exists()


# --- 2. long polls froze the server and churned database sessions -------------------------------


@dataclass
class Quiet:
    """A started game where nothing happens until ``actor`` acts; ``others`` hold no seat."""

    id: str
    version: int
    actor: APIClient
    waiter: User
    others: list[User]

    def events(self, user: User, wait: int) -> Any:
        url = f"{game_url(self.id, 'events')}?after={self.version}&wait={wait}"
        return client_for(user).get(url)


@pytest.fixture
def quiet(transactional_db: None) -> Quiet:
    ada, bob, *others = (make_user(name) for name in ("ada", "bob", "cy", "dee", "eve"))
    # A known deal: an unseeded one now and then starts with a wild, and the actor's first
    # move is then naming its colour, not the draw the tests make.
    game = game_create(player=ada, spec=NewGame(max_players=2, seed=424242))
    game = game_join(player=bob, game_id=game.pk)
    game.refresh_from_db()
    state = state_from_data(game.state)
    assert {"action": "draw"} in engine.legal_actions(state, game.current_seat)
    actor, waiter = (ada, bob) if game.current_seat == 0 else (bob, ada)
    return Quiet(str(game.pk), game.version, client_for(actor), waiter, others)


def until(condition: Callable[[], bool], what: str, seconds: float = 30) -> None:
    """Poll ``condition`` (bounded) instead of sleeping for a guessed time."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.01)


# ``call`` is called with no argument; ``...``, not ``[]``: mypy infers no type for a
# ``lambda v=v: ...`` (a loop variable bound) against ``Callable[[], Any]``.
def in_thread(call: Callable[..., Any]) -> Future[Any]:
    def run() -> Any:
        try:
            return call()
        finally:
            connection.close()

    return POOL.submit(run)


POOL = ThreadPoolExecutor(8)


def test_long_polls_of_one_player_are_capped(quiet: Quiet, settings: Settings) -> None:
    """Sixteen polls of one player held every thread of the server."""
    settings.UNO_LONG_POLLS_PER_PLAYER = 2
    held = [in_thread(lambda: quiet.events(quiet.waiter, 30)) for _ in range(2)]
    until(lambda: longpoll.held(quiet.waiter.pk) == 2, "both polls wait")

    excess = quiet.events(quiet.waiter, 30)
    another = in_thread(lambda: quiet.events(quiet.others[0], 30))
    until(lambda: longpoll.held() == 3, "another player's poll waits")
    drawn = quiet.actor.post(game_url(quiet.id, "actions"), {"action": "draw"}, format="json")

    body = refused(excess, 429, "throttled")
    assert "long polls" in body["detail"]
    assert int(excess["Retry-After"]) >= 1
    assert drawn.status_code == 200, drawn.content
    # The action wakes every waiting poll (no 30 s wait), and each sees it.
    for answer in [*(f.result(timeout=30) for f in held), another.result(timeout=30)]:
        assert answer.status_code == 200, answer.content
        assert answer.json()["events"][0]["seq"] == quiet.version + 1
    assert longpoll.held() == 0


def test_long_polls_of_a_process_are_capped(quiet: Quiet, settings: Settings) -> None:
    settings.UNO_LONG_POLLS_PER_PROCESS = 2
    held = [in_thread(lambda user=user: quiet.events(user, 30)) for user in quiet.others[:2]]
    until(lambda: longpoll.held() == 2, "two polls wait")

    excess = quiet.events(quiet.waiter, 30)
    at_once = quiet.events(quiet.waiter, 0)
    quiet.actor.post(game_url(quiet.id, "actions"), {"action": "draw"}, format="json")

    refused(excess, 429, "throttled")
    assert at_once.status_code == 200, "a read that does not wait holds nothing"
    assert all(f.result(timeout=30).status_code == 200 for f in held)


def test_a_waiting_poll_keeps_one_database_session(
    quiet: Quiet, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each waiting poll opened a new PostgreSQL session every 0.2 s (one 5 s poll: 25)."""
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 0)  # the most sessions it can
    connection.close()
    opened: list[object] = []

    def count(**_: object) -> None:
        opened.append(1)

    connection_created.connect(count)
    try:
        answer = quiet.events(quiet.waiter, 3)
    finally:
        connection_created.disconnect(count)

    assert answer.status_code == 200 and answer.json()["events"] == []
    assert len(opened) <= 1, f"{len(opened)} sessions for one poll"


# --- 8. creation, joins and replays were unbounded ----------------------------------------------


@pytest.fixture
def rates(settings: Settings) -> Iterator[Callable[..., None]]:
    """Throttle rates for the test (the suite runs without), from a clean count."""

    def set_rates(**rates: str | None) -> None:
        settings.UNO_THROTTLE_RATES = {**settings.UNO_THROTTLE_RATES, **rates}

    cache.clear()
    yield set_rates
    cache.clear()


def test_game_creation_is_throttled_per_player(db: None, rates: Callable[..., None]) -> None:
    """One player created 1,000 waiting games in 10 s."""
    rates(games="3/hour")
    mallory, alice = client_for(make_user("mallory")), client_for(make_user("alice"))

    made = [mallory.post(GAMES, {"max_players": 2}, format="json") for _ in range(4)]
    listed = mallory.get(GAMES)

    assert [a.status_code for a in made[:3]] == [201, 201, 201]
    refused(made[3], 429, "throttled")
    assert int(made[3]["Retry-After"]) > 0
    assert listed.status_code == 200, "reading the list is not creating"
    assert alice.post(GAMES, {"max_players": 2}, format="json").status_code == 201
    assert Game.objects.count() == 4


def test_challenges_and_tournaments_count_as_creating_games(
    db: None, rates: Callable[..., None]
) -> None:
    """A player sent 62 challenges to one other in a row (each a notification, a push), and
    made 25 identical tournaments that filled the public list: nothing limited either."""
    rates(games="3/hour")
    mallory, alice = client_for(make_user("mallory")), client_for(make_user("alice"))
    make_user("bob")
    cup = {
        "name": "Cup",
        "format": "swiss",
        "rounds": 1,
        "starts_at": (timezone.now() + timedelta(days=1)).isoformat(),
    }

    sent = [mallory.post("/api/v1/challenges/", {"to": "bob"}, format="json") for _ in range(2)]
    made = mallory.post("/api/v1/tournaments/", cup, format="json")
    refused_ = mallory.post("/api/v1/tournaments/", cup, format="json")

    assert [a.status_code for a in [*sent, made]] == [201, 201, 201]
    refused(refused_, 429, "throttled")
    refused(mallory.post("/api/v1/challenges/", {"to": "bob"}, format="json"), 429, "throttled")
    refused(mallory.post(GAMES, {"max_players": 2}, format="json"), 429, "throttled")
    assert mallory.get("/api/v1/challenges/").status_code == 200, "reading is not creating"
    assert alice.post("/api/v1/challenges/", {"to": "bob"}, format="json").status_code == 201


def test_joins_and_replays_are_throttled_per_player(
    table: Table, rates: Callable[..., None]
) -> None:
    rates(joins="1/hour", replays="2/minute")
    hosts = [client_for(make_user(f"host{i}")) for i in range(2)]
    lobbies = [h.post(GAMES, {"max_players": 3}, format="json").json()["id"] for h in hosts]

    joins = [table.outsider_client().post(game_url(lobby, "join")) for lobby in lobbies]
    replays = [table.actor_client().get(table.url("replay"), {"at": 1}) for _ in range(3)]

    assert joins[0].status_code == 200
    refused(joins[1], 429, "throttled")
    assert [r.status_code for r in replays[:2]] == [200, 200]
    refused(replays[2], 429, "throttled")


def test_a_player_holds_a_bounded_number_of_waiting_games(db: None, settings: Settings) -> None:
    settings.UNO_MAX_WAITING_GAMES = 2
    mallory = client_for(make_user("mallory"))
    host = client_for(make_user("host"))
    made = [mallory.post(GAMES, {"max_players": 3}, format="json") for _ in range(3)]
    theirs = host.post(GAMES, {"max_players": 3}, format="json").json()["id"]
    duel = host.post(GAMES, {"max_players": 2}, format="json").json()["id"]

    join = mallory.post(game_url(theirs, "join"))
    starts = mallory.post(game_url(duel, "join"))

    assert [a.status_code for a in made[:2]] == [201, 201]
    body = refused(made[2], 409, "too_many_waiting_games")
    assert "2 waiting games" in body["detail"]
    refused(join, 409, "too_many_waiting_games")
    assert starts.status_code == 200 and starts.json()["status"] == "active", (
        "a join that fills a game starts it: it holds no waiting game"
    )
    left = mallory.post(game_url(made[0].json()["id"], "leave"))
    assert left.status_code == 200
    assert mallory.post(GAMES, {"max_players": 3}, format="json").status_code == 201


# --- the Idempotency-Key's documented behaviour ------------------------------------------------


def test_the_schema_says_a_refused_idempotency_key_may_act_later(db: None) -> None:
    """tests/games/test_idempotency.py shows only successful answers are stored under a key; the
    header's description now says so (../shared/api.md's terms)."""
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    action = schema["paths"]["/api/v1/games/{game_id}/actions/"]["post"]
    header = next(p for p in action["parameters"] if p["name"] == "Idempotency-Key")

    assert "Only successful answers are stored" in header["description"]
    assert "refused (4xx) may act when sent again" in header["description"]
