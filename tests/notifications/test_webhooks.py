"""Webhooks: registered over HTTP, delivered to a real receiver on loopback, signed the Standard
Webhooks way (checked with the ``standardwebhooks`` package), retried with one ``webhook-id``,
drained once by two real Celery workers, never into the server's own network."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from pytest_django.fixtures import Settings
from standardwebhooks import Webhook as StandardWebhook

from notifications import delivery, http, limits
from notifications.models import Notification, Webhook, WebhookDelivery
from service import play
from service.lobby import NewGame, game_create, game_join
from tests.support.notifications import WAIT, Receiver, start_workers, wait_for
from tests.support.players import client_for
from tests.support.timeouts import started_game

WEBHOOKS = "/api/v1/webhooks/"
# A public address (nothing is delivered to it: these tests commit nothing). Names would need DNS.
PUBLIC = "https://1.1.1.1"
ALL_KINDS = [
    "your_turn",
    "deadline_soon",
    "game_started",
    "game_finished",
    "player_joined",
    "invited",
    "challenge",
    "challenge_accepted",
    "tournament_starting",
    "tournament_table",
    "tournament_finished",
    "game_abandoned",
]


def register(user: User, url: str, **body: Any) -> dict[str, Any]:
    answer = client_for(user).post(WEBHOOKS, {"url": url, **body}, format="json")
    assert answer.status_code == 201, answer.json()
    return dict(answer.json())


def verified(secret: str, request: Any) -> dict[str, Any]:
    """The body of a delivery, once its signature verifies (Standard Webhooks)."""
    return dict(StandardWebhook(secret).verify(request.body, request.headers))


# --- the API --------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_webhook_is_created_with_a_secret_shown_once(users: list[User]) -> None:
    created = register(users[0], PUBLIC + "/uno", kinds=["your_turn"])

    assert created["secret"].startswith("whsec_") and created["kinds"] == ["your_turn"]
    assert created["url"] == PUBLIC + "/uno" and created["disabled_at"] is None
    listed = client_for(users[0]).get(WEBHOOKS).json()["results"]
    assert [w["id"] for w in listed] == [created["id"]]
    assert "secret" not in listed[0]
    assert client_for(users[1]).get(WEBHOOKS).json()["results"] == []
    assert register(users[0], PUBLIC + "/all")["kinds"] == ALL_KINDS


@pytest.mark.django_db
def test_a_webhook_is_deleted_by_its_owner_only(users: list[User]) -> None:
    created = register(users[0], PUBLIC + "/uno")
    url = f"{WEBHOOKS}{created['id']}/"

    for path in (url, f"{url}deliveries/"):
        other = client_for(users[1]).generic("DELETE" if path == url else "GET", path)
        assert other.status_code == 404 and other.json()["code"] == "not_found"
    assert client_for(users[0]).delete(url).status_code == 204
    assert client_for(users[0]).delete(url).status_code == 404
    assert client_for(users[0]).delete(f"{WEBHOOKS}{2**70}/").status_code == 404
    assert not Webhook.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body",
    [
        {},
        {"url": ""},
        {"url": 7},
        {"url": PUBLIC + "/", "kinds": []},
        {"url": PUBLIC + "/", "kinds": ["your_move"]},
        {"url": PUBLIC + "/", "kinds": "your_turn"},
        {"url": PUBLIC + "/", "extra": True},
        {"url": PUBLIC + "/" + "a" * limits.URL_LENGTH},
    ],
)
def test_a_bad_webhook_body_is_refused(users: list[User], body: dict[str, Any]) -> None:
    answer = client_for(users[0]).post(WEBHOOKS, body, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "invalid"
    assert not Webhook.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/hook",
        "http://localhost/hook",
        "http://[::1]/hook",
        "http://[::ffff:127.0.0.1]/hook",
        "http://10.1.2.3/hook",
        "http://192.168.0.10/hook",
        "http://172.16.0.1/hook",
        "http://169.254.169.254/latest/meta-data",
        "http://0.0.0.0/hook",
        "http://no-such-host.invalid/hook",
        "ftp://example.com/hook",
        "http://user:pass@example.com/hook",
        "example.com/hook",
    ],
)
def test_urls_into_the_servers_network_are_refused(
    users: list[User], settings: Settings, url: str
) -> None:
    settings.UNO_WEBHOOKS_ALLOW_PRIVATE = False
    answer = client_for(users[0]).post(WEBHOOKS, {"url": url}, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "url_refused", url
    assert not Webhook.objects.exists()


@pytest.mark.django_db
def test_a_player_has_a_bounded_number_of_webhooks(users: list[User]) -> None:
    for i in range(limits.WEBHOOKS_PER_PLAYER):
        register(users[0], f"{PUBLIC}/{i}")
    answer = client_for(users[0]).post(WEBHOOKS, {"url": PUBLIC + "/x"}, format="json")
    assert answer.status_code == 409 and answer.json()["code"] == "limit_reached"


# --- delivery in-process (no broker) --------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_each_notification_is_delivered_signed_after_its_commit(
    users: list[User], receiver: Receiver
) -> None:
    hook = register(users[0], receiver.url)

    game = started_game(users[:2])

    mine = list(Notification.objects.filter(player=users[0]).order_by("id"))
    got = receiver.received(len(mine))
    assert len(got) == len(mine) and {n.kind for n in mine} >= {"player_joined", "game_started"}
    for notification, request in zip(mine, got, strict=True):
        body = verified(hook["secret"], request)
        assert request.headers["webhook-id"] == str(notification.pk)
        assert body == {
            "id": notification.pk,
            "kind": notification.kind,
            "game": str(game.pk),
            "at": notification.at.isoformat(),
            "read": False,
            "data": notification.data,
        }
        assert request.headers["content-type"] == "application/json"
    log = client_for(users[0]).get(f"{WEBHOOKS}{hook['id']}/deliveries/").json()
    assert log["count"] == len(mine)
    assert {(d["attempt"], d["status"], d["response_code"]) for d in log["results"]} == {
        (1, "succeeded", 200)
    }
    assert [d["notification"] for d in log["results"]] == [n.pk for n in reversed(mine)]


@pytest.mark.django_db(transaction=True)
def test_a_webhook_gets_only_the_kinds_it_asked_for(users: list[User], receiver: Receiver) -> None:
    register(users[0], receiver.url, kinds=["game_finished"])
    game = started_game(users[:2], turn_timeout=3600)
    assert receiver.requests == []

    loser = game.current_seat
    assert loser is not None
    play.game_resign(player=users[loser], game_id=game.pk)

    (request,) = receiver.received(1)
    assert json.loads(request.body)["kind"] == "game_finished"


@pytest.mark.django_db(transaction=True)
def test_a_webhook_of_game_started_hears_of_a_game_an_accepted_challenge_started(
    users: list[User], receiver: Receiver
) -> None:
    """The challenger is told of the game's start by ``challenge_accepted`` alone (it stands for
    their ``game_started``): a webhook that took ``game_started`` and not that kind heard nothing
    of the game until the challenger's turn, which may be the second. It gets that notice now; a
    webhook that takes both gets it once."""
    ana, bo = users[:2]
    base = receiver.url.rsplit("/", 1)[0]
    started_only = register(ana, f"{base}/started", kinds=["game_started"])
    both = register(ana, f"{base}/both", kinds=["game_started", "challenge_accepted"])
    register(ana, f"{base}/turns", kinds=["your_turn"])

    made = client_for(ana).post("/api/v1/challenges/", {"to": bo.username}, format="json")
    assert made.status_code == 201, made.json()
    accepted = client_for(bo).post(f"/api/v1/challenges/{made.json()['id']}/accept/")
    assert accepted.status_code == 200, accepted.json()
    game = accepted.json()["game"]

    (notice,) = Notification.objects.filter(player=ana, game=game, kind="challenge_accepted")
    assert not Notification.objects.filter(player=ana, game=game, kind="game_started").exists()
    # The deliveries are made in the acceptance's request (no broker): all there is has come.
    got = {r.path: r for r in receiver.requests if r.path in ("/started", "/both")}
    assert sorted(r.path for r in receiver.requests if r.path != "/turns") == ["/both", "/started"]
    for path, hook in (("/started", started_only), ("/both", both)):
        body = verified(hook["secret"], got[path])
        assert got[path].headers["webhook-id"] == str(notice.pk)
        assert body["kind"] == "challenge_accepted" and body["game"] == game, body
        assert body["data"]["seat"] == 0 and body["data"]["others"][0]["id"] == bo.pk, body


@pytest.mark.django_db(transaction=True)
def test_a_redirect_is_not_followed(users: list[User], receiver: Receiver) -> None:
    receiver.otherwise = 302
    register(users[0], receiver.url, kinds=["player_joined"])

    game_join(player=users[1], game_id=game_create(player=users[0], spec=NewGame()).pk)

    assert [r.path for r in receiver.received(1)] == ["/hook"]
    (first, following) = WebhookDelivery.objects.order_by("attempt")
    assert (first.status, first.response_code) == ("failed", 302)
    assert first.next_retry_at is not None and following.status == "pending"
    assert following.at == first.next_retry_at
    assert [r.path for r in receiver.requests] == ["/hook"]


@pytest.mark.django_db(transaction=True)
def test_a_receiver_that_does_not_answer_in_time_fails_the_attempt(
    users: list[User], receiver: Receiver, settings: Settings
) -> None:
    settings.UNO_WEBHOOK_TIMEOUT = 1
    receiver.hold = threading.Event()  # answers only once the test is over
    register(users[0], receiver.url, kinds=["player_joined"])

    game_join(player=users[1], game_id=game_create(player=users[0], spec=NewGame()).pk)

    first = WebhookDelivery.objects.get(attempt=1)
    assert (first.status, first.response_code) == ("failed", None)
    assert first.next_retry_at is not None


class SlowReceiver:
    """A raw HTTP receiver on loopback that answers 200 slowly: its header lines (``trickle``)
    or its body's bytes (``body``) one at a time, ``gap`` seconds apart, ``pieces`` of them.
    ``hung_up``: the poster closed the connection before the answer was all sent."""

    def __init__(self, slow: str, pieces: int = 12, gap: float = 0.25) -> None:
        self.slow, self.pieces, self.gap = slow, pieces, gap
        self.hung_up = threading.Event()
        self.server = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.server.getsockname()[1]}/hook"
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        conn, _ = self.server.accept()
        with conn:
            request = b""
            while b"\r\n\r\n" not in request:
                request += conn.recv(65536)
            try:
                if self.slow == "trickle":
                    conn.sendall(b"HTTP/1.1 200 OK\r\n")
                    for n in range(self.pieces):
                        time.sleep(self.gap)
                        conn.sendall(f"x-slow-{n}: 1\r\n".encode())
                    conn.sendall(b"Content-Length: 0\r\n\r\n")
                else:
                    conn.sendall(
                        f"HTTP/1.1 200 OK\r\nContent-Length: {self.pieces}\r\n\r\n".encode()
                    )
                    for _ in range(self.pieces):
                        time.sleep(self.gap)
                        conn.sendall(b"x")
            except OSError:  # the poster hung up
                self.hung_up.set()
                return
            conn.settimeout(WAIT)
            with contextlib.suppress(OSError):
                if conn.recv(1) == b"":
                    self.hung_up.set()  # closed only after the whole answer


def test_a_receiver_that_sends_its_headers_slowly_is_cut_at_the_deadline(
    settings: Settings,
) -> None:
    """The timeout was per read: a receiver that sent a header line every quarter second kept
    the worker for three seconds past a timeout of one, and the delivery counted as done."""
    settings.UNO_WEBHOOK_TIMEOUT = 1
    receiver = SlowReceiver("trickle")
    assert http.post(receiver.url, b"{}", {"Content-Type": "application/json"}) is None
    assert receiver.hung_up.wait(WAIT)


def test_a_receiver_whose_headers_came_in_time_succeeds_however_slow_its_body(
    settings: Settings,
) -> None:
    settings.UNO_WEBHOOK_TIMEOUT = 1
    receiver = SlowReceiver("body")
    assert http.post(receiver.url, b"{}", {"Content-Type": "application/json"}) == 200
    receiver.thread.join(WAIT)
    assert receiver.hung_up.is_set()


@pytest.mark.django_db(transaction=True)
def test_without_a_broker_a_retry_falls_to_the_next_drain(
    users: list[User], receiver: Receiver, settings: Settings
) -> None:
    settings.UNO_WEBHOOK_RETRY_DELAYS = [3600]
    receiver.answers = [500]
    register(users[0], receiver.url, kinds=["player_joined"])
    game = game_create(player=users[0], spec=NewGame(max_players=4))

    game_join(player=users[1], game_id=game.pk)
    assert len(receiver.received(1)) == 1
    # An hour on (as if): the retry is due, and made by the next write that notifies someone.
    pending = WebhookDelivery.objects.filter(status="pending")
    assert pending.update(at=timezone.now() - timedelta(seconds=1)) == 1
    game_join(player=users[2], game_id=game.pk)

    got = receiver.received(3)
    assert sorted(json.loads(r.body)["data"]["seat"] for r in got) == [1, 1, 2]
    first, again = (r for r in got if json.loads(r.body)["data"]["seat"] == 1)
    assert first.body == again.body
    assert first.headers["webhook-id"] == again.headers["webhook-id"]


@pytest.mark.django_db(transaction=True)
def test_a_webhook_failing_for_three_days_is_disabled(
    users: list[User], receiver: Receiver
) -> None:
    receiver.otherwise = 500
    hook = register(users[0], receiver.url, kinds=["player_joined"])
    Webhook.objects.filter(pk=hook["id"]).update(
        failing_since=timezone.now() - timedelta(days=3, seconds=1)
    )
    game = game_create(player=users[0], spec=NewGame(max_players=4))

    game_join(player=users[1], game_id=game.pk)
    webhook = Webhook.objects.get(pk=hook["id"])
    assert webhook.disabled_at is not None
    (attempt,) = WebhookDelivery.objects.all()
    assert attempt.status == "failed" and attempt.next_retry_at is None

    game_join(player=users[2], game_id=game.pk)
    assert len(receiver.requests) == 1 and WebhookDelivery.objects.count() == 1
    listed = client_for(users[0]).get(WEBHOOKS).json()["results"]
    assert listed[0]["disabled_at"] is not None

    # Once the receiver is fixed, its owner turns it on again: same secret, and the
    # notifications written from then on are delivered, signed with it. It could only be
    # deleted and added again (a new secret for the receiver, the delivery log lost).
    enable = f"{WEBHOOKS}{hook['id']}/enable/"
    for stranger in (
        client_for(users[1]).post(enable),
        client_for(users[0]).post(f"{WEBHOOKS}{hook['id'] + 1000}/enable/"),
    ):
        assert stranger.status_code == 404 and stranger.json()["code"] == "not_found"
    assert Webhook.objects.get(pk=hook["id"]).disabled_at is not None
    receiver.otherwise = 200
    answer = client_for(users[0]).post(enable)
    assert answer.status_code == 200, answer.json()
    assert answer.json()["disabled_at"] is None and answer.json()["id"] == hook["id"]
    again = Webhook.objects.get(pk=hook["id"])
    assert again.secret == hook["secret"] and again.failing_since is None
    assert client_for(users[0]).post(enable).json() == answer.json()  # on already: unchanged
    game_join(player=users[3], game_id=game.pk)
    (delivered,) = receiver.received(2)[1:]
    assert verified(hook["secret"], delivered)["data"]["player"]["id"] == users[3].pk
    assert WebhookDelivery.objects.filter(status="succeeded").count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_success_ends_a_run_of_failures(users: list[User], receiver: Receiver) -> None:
    receiver.answers = [500]
    hook = register(users[0], receiver.url, kinds=["player_joined"])
    game = game_create(player=users[0], spec=NewGame(max_players=4))

    game_join(player=users[1], game_id=game.pk)
    assert Webhook.objects.get(pk=hook["id"]).failing_since is not None
    game_join(player=users[2], game_id=game.pk)
    assert Webhook.objects.get(pk=hook["id"]).failing_since is None


def test_the_retry_schedule_grows_then_repeats(settings: Settings) -> None:
    settings.UNO_WEBHOOK_RETRY_DELAYS = [10, 60, 300, 1800, 3600]
    assert [delivery.retry_delay(n) for n in range(1, 8)] == [
        10,
        60,
        300,
        1800,
        3600,
        3600,
        3600,
    ]
    # At least 24 hours of retries before a notification is given up (3 days by default).
    assert settings.UNO_WEBHOOK_DISABLE_AFTER >= 24 * 3600


# --- delivery by real workers ---------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_receiver_that_fails_twice_gets_the_notification_three_times_with_one_id(
    users: list[User], receiver: Receiver, worker_env: dict[str, str], tmp_path: Path
) -> None:
    receiver.answers = [500, 503]
    hook = register(users[0], receiver.url, kinds=["player_joined"])
    workers = start_workers(2, worker_env, tmp_path)
    try:
        game_join(player=users[1], game_id=game_create(player=users[0], spec=NewGame()).pk)
        got = receiver.received(3)
        wait_for(workers.idle, WAIT, "every task to have run")
    finally:
        workers.stop()

    assert len(receiver.requests) == 3
    (notification,) = Notification.objects.filter(player=users[0])
    assert {r.headers["webhook-id"] for r in got} == {str(notification.pk)}
    assert len({r.body for r in got}) == 1
    for request in got:
        assert verified(hook["secret"], request)["id"] == notification.pk
    log = client_for(users[0]).get(f"{WEBHOOKS}{hook['id']}/deliveries/").json()["results"]
    assert [(d["attempt"], d["status"], d["response_code"]) for d in log] == [
        (3, "succeeded", 200),
        (2, "failed", 503),
        (1, "failed", 500),
    ]
    assert log[0]["next_retry_at"] is None and log[1]["next_retry_at"] is not None


@pytest.mark.django_db(transaction=True)
def test_two_workers_drain_the_outbox_exactly_once(
    users: list[User], receiver: Receiver, worker_env: dict[str, str], tmp_path: Path
) -> None:
    """Notifications pile up while no worker runs (a drain task queued by each write); two
    workers started together race over them: each notification reaches the receiver once."""
    for user in users[:2]:
        register(user, receiver.url)
    for _ in range(3):
        started_game(users[:2], turn_timeout=3600)
    notifications = set(
        Notification.objects.filter(player__in=users[:2]).values_list("pk", flat=True)
    )
    assert len(notifications) >= 12 and not Notification.objects.filter(dispatched=True)

    workers = start_workers(2, worker_env, tmp_path)
    try:
        got = receiver.received(len(notifications))
        wait_for(workers.idle, WAIT, "every task to have run")
    finally:
        workers.stop()

    ids = [int(r.headers["webhook-id"]) for r in receiver.requests]
    assert sorted(ids) == sorted(notifications) and len(got) == len(ids)
    assert WebhookDelivery.objects.filter(attempt=1).count() == len(notifications)
    assert not WebhookDelivery.objects.exclude(status="succeeded").exists()
