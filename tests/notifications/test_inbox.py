"""The in-app inbox over HTTP: the caller's notifications, newest first, and marking them read."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from notifications.models import Notification
from tests.support.players import client_for
from tests.support.timeouts import started_game

pytestmark = pytest.mark.django_db
INBOX = "/api/v1/notifications/"
READ = "/api/v1/notifications/read/"


def test_the_inbox_lists_the_callers_notifications_newest_first(users: list[User]) -> None:
    game = started_game(users[:3])
    mine = list(Notification.objects.filter(player=users[0]).order_by("-id"))

    answer = client_for(users[0]).get(INBOX)

    assert answer.status_code == 200
    body = answer.json()
    assert body["count"] == len(mine) >= 3
    assert [n["id"] for n in body["results"]] == [n.pk for n in mine]
    first = body["results"][-1]
    assert first == {
        "id": mine[-1].pk,
        "kind": "player_joined",
        "game": str(game.pk),
        "at": mine[-1].at.isoformat(),
        "read": False,
        "data": mine[-1].data,
    }
    others = {n.pk for n in Notification.objects.exclude(player=users[0])}
    assert others and not others & {n["id"] for n in body["results"]}


def test_the_inbox_pages_and_filters_unread(users: list[User]) -> None:
    started_game(users[:4])  # seat 0 hears of three seats taken and the start: four or five
    client = client_for(users[0])
    total = Notification.objects.filter(player=users[0]).count()

    page = client.get(INBOX, {"page_size": 2}).json()
    assert page["count"] == total and len(page["results"]) == 2 and page["next"]
    second = client.get(page["next"]).json()
    assert {n["id"] for n in second["results"]}.isdisjoint(n["id"] for n in page["results"])

    newest = page["results"][0]["id"]
    marked = client.post(READ, {"ids": [newest]}, format="json")
    assert marked.status_code == 200 and marked.json() == {"marked": 1}
    unread = client.get(INBOX, {"unread": "true"}).json()
    assert unread["count"] == total - 1 and newest not in [n["id"] for n in unread["results"]]
    assert client.get(INBOX).json()["results"][0]["read"] is True

    assert client.post(READ, {"all": True}, format="json").json() == {"marked": total - 1}
    assert client.get(INBOX, {"unread": "true"}).json()["count"] == 0


def test_marking_another_players_notifications_changes_nothing(users: list[User]) -> None:
    started_game(users[:2])
    theirs = list(Notification.objects.filter(player=users[1]).values_list("pk", flat=True))

    answer = client_for(users[0]).post(READ, {"ids": theirs}, format="json")

    assert answer.status_code == 200 and answer.json() == {"marked": 0}
    assert not Notification.objects.filter(pk__in=theirs, read=True).exists()


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"ids": []},
        {"ids": [1], "all": True},
        {"all": False},
        {"all": "yes"},
        {"ids": ["one"]},
        {"ids": [0]},
        {"ids": list(range(1, 1002))},
        {"ids": [1], "extra": 1},
        ["ids"],
    ],
)
def test_a_bad_mark_read_body_is_refused_and_changes_nothing(
    users: list[User], body: object
) -> None:
    started_game(users[:2])
    answer = client_for(users[0]).post(READ, body, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "invalid"
    assert not Notification.objects.filter(read=True).exists()


@pytest.mark.parametrize("query", [{"unread": "maybe"}, {"page_size": 0}, {"page": "x"}, {"z": 1}])
def test_a_bad_inbox_query_is_refused(users: list[User], query: dict[str, str | int]) -> None:
    answer = client_for(users[0]).get(INBOX, query)
    assert answer.status_code == 400 and answer.json()["code"] == "invalid"


def test_the_inbox_needs_a_token(users: list[User]) -> None:
    from rest_framework.test import APIClient

    answer = APIClient().get(INBOX)
    assert answer.status_code == 401 and answer.json()["code"] == "not_authenticated"
