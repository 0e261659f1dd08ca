"""What a signed-in stranger (eve) may do to what belongs to others, through HTTP: every object
of someone else (a webhook, a Web Push subscription, a session, a challenge, a notification) and
every call on a private game eve has no seat in (a finished one, its chat, export and replay; one
she left while it waited) answers 404 ``not_found`` (the same as for nothing at all: the id tells
nothing), never the object, and changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pytest
from pytest_django.fixtures import Settings

from games.models import Challenge, ChallengeStatus, ChatMessage, ChatMute
from notifications.models import Notification, PushSubscription, Webhook
from players.models import Report, Session
from tests.support.players import Player
from tests.support.table import create_game, game_url, ok, refused

if TYPE_CHECKING:  # the stubs' name for what the test clients answer
    from rest_framework.response import _MonkeyPatchedResponse as Response

pytestmark = pytest.mark.django_db

BY_CODE = "/api/v1/games/join-by-code/"


@dataclass
class Others:
    """ada's things, and a private finished game of ada and bob (bob resigned) with a line of
    chat, and a private waiting game eve joined and left."""

    ada: Player
    bob: Player
    eve: Player
    webhook: int
    subscription: int
    session: str
    challenge: str
    notifications: list[int]
    finished: str
    left: str


@pytest.fixture
def others(players: list[Player], outsider: Player, settings: Settings) -> Others:
    settings.UNO_WEBHOOKS_ALLOW_PRIVATE = True
    ada, bob, *_ = players
    webhook = ok(ada.client.post("/api/v1/webhooks/", {"url": "http://127.0.0.1:9/"}, "json"), 201)
    subscription = PushSubscription.objects.create(
        player=ada.user, endpoint="https://push.example/ada", p256dh="k", auth="a"
    )
    session = ok(ada.client.get("/api/v1/players/me/sessions/"))[0]["id"]
    challenge = ok(ada.client.post("/api/v1/challenges/", {"to": bob.user.username}, "json"), 201)

    finished = create_game(ada, max_players=2, private=True)
    ok(bob.client.post(BY_CODE, {"code": finished["invite_code"]}, format="json"))
    ok(bob.client.post(game_url(finished["id"], "chat"), {"text": "gg"}, format="json"), 201)
    ok(bob.client.post(game_url(finished["id"], "resign")))

    waiting = create_game(ada, max_players=3, private=True)
    ok(outsider.client.post(BY_CODE, {"code": waiting["invite_code"]}, format="json"))
    ok(outsider.client.post(game_url(waiting["id"], "leave")))
    return Others(
        ada,
        bob,
        outsider,
        webhook["id"],
        subscription.pk,
        session,
        challenge["id"],
        # bob's unread ones: the game's end made his turn notice read, when the deal (random
        # here) had given him the first turn
        list(Notification.objects.filter(player=bob.user, read=False).values_list("id", flat=True)),
        finished["id"],
        waiting["id"],
    )


def _state() -> tuple[Any, ...]:
    """Everything the calls below could change."""
    return (
        Webhook.objects.filter(disabled_at__isnull=True).count(),
        PushSubscription.objects.count(),
        Session.objects.filter(ended_at__isnull=True).count(),
        Challenge.objects.filter(status=ChallengeStatus.OPEN).count(),
        Notification.objects.filter(read=False).count(),
        ChatMessage.objects.count(),
        ChatMute.objects.count(),
        Report.objects.count(),
    )


Call = Callable[[Others], "Response"]


def reading(game: str, what: str) -> Call:
    """eve's GET of ``what`` of the game ``game`` (``finished`` or ``left``)."""
    return lambda o: o.eve.client.get(game_url(getattr(o, game), what))


CALLS: dict[str, Call] = {
    "webhook deliveries": lambda o: o.eve.client.get(f"/api/v1/webhooks/{o.webhook}/deliveries/"),
    "webhook enable": lambda o: o.eve.client.post(f"/api/v1/webhooks/{o.webhook}/enable/"),
    "webhook delete": lambda o: o.eve.client.delete(f"/api/v1/webhooks/{o.webhook}/"),
    "push unsubscribe": lambda o: o.eve.client.delete(
        f"/api/v1/push/subscriptions/{o.subscription}/"
    ),
    "end a session": lambda o: o.eve.client.delete(f"/api/v1/players/me/sessions/{o.session}/"),
    "accept": lambda o: o.eve.client.post(f"/api/v1/challenges/{o.challenge}/accept/"),
    "decline": lambda o: o.eve.client.post(f"/api/v1/challenges/{o.challenge}/decline/"),
    "cancel": lambda o: o.eve.client.post(f"/api/v1/challenges/{o.challenge}/cancel/"),
    **{f"finished {what}": reading("finished", what) for what in ("", "events", "export", "chat")},
    "finished replay": lambda o: o.eve.client.get(game_url(o.finished, "replay"), {"at": 1}),
    "finished chat send": lambda o: o.eve.client.post(
        game_url(o.finished, "chat"), {"text": "hi"}, format="json"
    ),
    "finished mute": lambda o: o.eve.client.post(game_url(o.finished, "chat/mute")),
    "finished unmute": lambda o: o.eve.client.delete(game_url(o.finished, "chat/mute")),
    "finished rematch": lambda o: o.eve.client.post(game_url(o.finished, "rematch")),
    "report naming it": lambda o: o.eve.client.post(
        "/api/v1/reports/",
        {"player": o.bob.id, "reason": "abuse", "game": o.finished, "seq": 1},
        format="json",
    ),
    **{f"left {what}": reading("left", what) for what in ("", "events", "chat")},
    "left stream": lambda o: o.eve.client.get(
        game_url(o.left, "stream"), HTTP_ACCEPT="text/event-stream"
    ),
    "left mute": lambda o: o.eve.client.post(game_url(o.left, "chat/mute")),
    "left join (no code)": lambda o: o.eve.client.post(game_url(o.left, "join")),
}


@pytest.mark.parametrize("call", CALLS.values(), ids=CALLS.keys())
def test_someone_elses_object_is_not_found_and_unchanged(others: Others, call: Call) -> None:
    before = _state()
    answer = refused(call(others), 404, "not_found")
    assert set(answer) <= {"code", "detail"}, answer  # the object is not in the refusal either
    assert _state() == before
    ok(others.ada.client.get("/api/v1/players/me/"))  # her session still signs her in


def test_marking_anothers_notifications_read_marks_none(others: Others) -> None:
    assert others.notifications
    marked = ok(
        others.eve.client.post(
            "/api/v1/notifications/read/", {"ids": others.notifications}, format="json"
        )
    )
    assert marked == {"marked": 0}
    unread = ok(others.bob.client.get("/api/v1/notifications/", {"unread": "true"}))
    assert {n["id"] for n in unread["results"]} >= set(others.notifications)
    listed = ok(others.eve.client.get("/api/v1/notifications/"))["results"]
    assert not {n["id"] for n in listed} & set(others.notifications)
