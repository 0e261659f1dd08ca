"""Which notifications Web Push carries, chosen by the player (``GET``/``PUT
/api/v1/push/kinds/``): the service's three until they choose, then exactly their kinds, to every
browser of theirs; the inbox keeps every kind. A refused choice changes nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from notifications.models import Notification
from service import play
from tests.support.notifications import Receiver
from tests.support.players import client_for
from tests.support.push import Browser, subscribe
from tests.support.timeouts import started_game

KINDS = "/api/v1/push/kinds/"


def choose(user: User, kinds: list[str]) -> dict[str, object]:
    answer = client_for(user).put(KINDS, {"kinds": kinds}, format="json")
    assert answer.status_code == 200, answer.json()
    return dict(answer.json())


@pytest.mark.django_db
def test_the_choice_is_the_services_until_the_player_makes_one(users: list[User]) -> None:
    client = client_for(users[0])
    default = {"kinds": ["your_turn", "deadline_soon", "game_finished"], "default": True}
    assert client.get(KINDS).json() == default

    chosen = choose(users[0], ["tournament_table", "challenge", "your_turn", "challenge"])

    assert chosen == {"kinds": ["your_turn", "challenge", "tournament_table"], "default": False}
    assert client.get(KINDS).json() == chosen
    assert client_for(users[1]).get(KINDS).json() == default  # the others' are their own
    assert choose(users[0], []) == {"kinds": [], "default": False}


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body",
    [{"kinds": ["your_turn", "nope"]}, {"kinds": "your_turn"}, {}, {"kinds": ["x"] * 50}],
)
def test_a_bad_choice_is_refused_and_changes_nothing(
    users: list[User], body: dict[str, object]
) -> None:
    client = client_for(users[0])
    choose(users[0], ["challenge"])

    answer = client.put(KINDS, body, format="json")

    assert answer.status_code == 400 and answer.json()["code"] == "invalid"
    assert client.get(KINDS).json() == {"kinds": ["challenge"], "default": False}


@pytest.mark.django_db(transaction=True)
def test_only_the_chosen_kinds_are_pushed(
    users: list[User], receiver: Receiver, vapid: str
) -> None:
    ana, bo = users[:2]
    base = receiver.url.rsplit("/", 1)[0]
    browsers = {ana.pk: Browser.new(f"{base}/push/ana"), bo.pk: Browser.new(f"{base}/push/bo")}
    for user in (ana, bo):
        subscribe(user, browsers[user.pk])
    choose(ana, [])
    choose(bo, ["challenge"])  # not pushed by default

    made = client_for(ana).post("/api/v1/challenges/", {"to": bo.username}, format="json")
    assert made.status_code == 201, made.json()
    game = started_game([ana, bo], turn_timeout=3600)  # turns: pushed to nobody now
    play.game_resign(player=ana, game_id=game.pk)  # finished: pushed to nobody now

    (pushed,) = receiver.received(1)
    assert pushed.path == "/push/bo"
    assert browsers[bo.pk].decrypt(pushed.body)["kind"] == "challenge"
    kinds = set(Notification.objects.filter(game=game).values_list("kind", flat=True))
    assert {"your_turn", "game_finished"} <= kinds  # the inbox still has them

    choose(ana, ["game_finished"])
    again = started_game([ana, bo], turn_timeout=3600)
    play.game_resign(player=bo, game_id=again.pk)

    late = receiver.received(2)[1:]
    assert [r.path for r in late] == ["/push/ana"]  # the earlier kinds never came
    assert browsers[ana.pk].decrypt(late[0].body)["kind"] == "game_finished"
    assert len(receiver.requests) == 2


@pytest.mark.django_db(transaction=True)
def test_a_choice_of_game_started_pushes_the_start_of_a_challenges_game(
    users: list[User], receiver: Receiver, vapid: str
) -> None:
    """The challenger's ``game_started`` of a challenge's game is its ``challenge_accepted``
    notice: a browser that chose ``game_started`` (and not that kind) was pushed nothing of it;
    it is pushed that notice now, once, and one that chose both is pushed it once too."""
    ana, bo, cy = users[:3]
    base = receiver.url.rsplit("/", 1)[0]
    browsers = {ana.pk: Browser.new(f"{base}/push/ana"), cy.pk: Browser.new(f"{base}/push/cy")}
    subscribe(ana, browsers[ana.pk])
    subscribe(cy, browsers[cy.pk])
    choose(ana, ["game_started"])
    choose(cy, ["game_started", "challenge_accepted"])

    for challenger in (ana, cy):
        made = client_for(challenger).post(
            "/api/v1/challenges/", {"to": bo.username}, format="json"
        )
        assert made.status_code == 201, made.json()
        accepted = client_for(bo).post(f"/api/v1/challenges/{made.json()['id']}/accept/")
        assert accepted.status_code == 200, accepted.json()

    # Pushed in the acceptances' requests (no broker): all there is has come.
    assert sorted(r.path for r in receiver.requests) == ["/push/ana", "/push/cy"]
    for request in receiver.requests:
        owner = ana if request.path == "/push/ana" else cy
        pushed = browsers[owner.pk].decrypt(request.body)
        assert pushed["kind"] == "challenge_accepted" and pushed["data"]["seat"] == 0, pushed
