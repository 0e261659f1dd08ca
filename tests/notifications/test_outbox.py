"""The outbox: a notification row exists exactly when the write that causes it committed.

Rows are written in the write's own transaction: an action's in the message of its events (so
an action stays four round trips, tests/games/test_queries.py), a seat taken in the lobby by the
write's recorded fact. A refused or rolled-back write leaves none; nothing in one shows a card.
"""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games.engine import IllegalMove
from games.engine.cards import CARD_CODES
from games.models import Game, Hand
from notifications import outbox
from notifications.models import Kind, Notification, WebhookDelivery
from notifications.signing import new_secret
from service import play, reminders
from service.lobby import NewGame, game_create, game_join, game_leave
from tests.support.notifications import Receiver
from tests.support.players import client_for
from tests.support.timeouts import pass_time, started_game

pytestmark = pytest.mark.django_db


def kinds_for(user: User, game: Game) -> list[str]:
    return list(
        Notification.objects.filter(player=user, game=game)
        .order_by("id")
        .values_list("kind", flat=True)
    )


def test_a_start_tells_every_seat_and_the_first_to_act(users: list[User]) -> None:
    game = started_game(users[:3])
    actor = game.current_seat
    assert actor is not None

    for seat, user in enumerate(users[:3]):
        kinds = kinds_for(user, game)
        assert kinds.count("game_started") == 1
        assert kinds.count("your_turn") == (1 if seat == actor else 0)
        # Each seat heard of every seat taken after its own.
        assert kinds.count("player_joined") == 2 - seat
    turn = Notification.objects.get(kind=Kind.YOUR_TURN, game=game)
    assert turn.player == users[actor]
    assert turn.data == {
        "seat": actor,
        "version": game.version,
        "deadline": game.turn_deadline.isoformat() if game.turn_deadline else None,
        "others": [
            {"id": user.pk, "username": user.username}
            for seat, user in enumerate(users[:3])
            if seat != actor
        ],
    }
    assert turn.version == game.version
    for started in Notification.objects.filter(kind=Kind.GAME_STARTED, game=game):
        seat = started.data["seat"]
        assert started.player == users[seat]
        assert [p["username"] for p in started.data["others"]] == [
            u.username for s, u in enumerate(users[:3]) if s != seat
        ]


def test_the_join_that_starts_a_game_is_told_before_its_start(users: list[User]) -> None:
    # The inbox lists the newest first (by id): "Game started" above the join that caused it.
    game = game_create(player=users[0], spec=NewGame(max_players=2))
    game_join(player=users[1], game_id=game.pk)

    assert kinds_for(users[0], game)[:2] == ["player_joined", "game_started"]
    joined = Notification.objects.get(kind=Kind.PLAYER_JOINED, game=game)
    started = Notification.objects.get(kind=Kind.GAME_STARTED, game=game, player=users[0])
    assert joined.id < started.id and joined.version < started.version


def test_a_seat_taken_tells_the_others_and_leaving_tells_nobody(users: list[User]) -> None:
    game = game_create(player=users[0], spec=NewGame(max_players=4))
    game_join(player=users[1], game_id=game.pk)
    game_join(player=users[2], game_id=game.pk)

    joined = Notification.objects.filter(kind=Kind.PLAYER_JOINED, game=game).order_by("id")
    assert [(n.player_id, n.data["seat"]) for n in joined] == [
        (users[0].pk, 1),
        (users[0].pk, 2),
        (users[1].pk, 2),
    ]
    assert joined[0].data["player"] == {"id": users[1].pk, "username": users[1].username}
    assert joined[2].data["players"] == 3 and joined[2].data["max_players"] == 4

    before = Notification.objects.count()
    game_leave(player=users[2], game_id=game.pk)
    assert Notification.objects.count() == before


def test_each_change_of_who_must_act_notifies_the_new_actor_once(users: list[User]) -> None:
    game = started_game(users[:2], turn_timeout=3600)
    for _ in range(6):
        game.refresh_from_db()
        actor = game.current_seat
        assert actor is not None
        before = Notification.objects.filter(kind=Kind.YOUR_TURN, game=game).count()
        played = play.game_act(player=users[actor], game_id=game.pk, action={"action": "draw"})
        after = played.game
        turns = Notification.objects.filter(kind=Kind.YOUR_TURN, game=game).order_by("-id")
        if after.current_seat != actor:
            assert turns.count() == before + 1
            assert after.current_seat is not None
            assert turns[0].player == users[after.current_seat]
            assert turns[0].version == after.version
        else:  # drew a playable card: still this seat's move, no news
            assert turns.count() == before
        if after.current_seat == actor:
            # Pass after drawing so the turn moves on.
            play.game_act(player=users[actor], game_id=game.pk, action={"action": "pass"})


def test_a_finished_game_tells_every_seat_the_winner(users: list[User]) -> None:
    game = started_game(users[:2], turn_timeout=3600)
    loser = game.current_seat
    assert loser is not None
    play.game_resign(player=users[loser], game_id=game.pk)

    finished = Notification.objects.filter(kind=Kind.GAME_FINISHED, game=game).order_by("player")
    assert [n.player for n in finished] == sorted(users[:2], key=lambda u: u.pk)
    assert {n.data["winner_seat"] for n in finished} == {1 - loser}
    winner = users[1 - loser]
    assert {(n.data["winner"]["id"], n.data["winner"]["username"]) for n in finished} == {
        (winner.pk, winner.username)
    }
    assert {n.data["winner_team"] for n in finished} == {None}
    assert {n.player.pk: n.data["won"] for n in finished} == {
        winner.pk: True,
        users[loser].pk: False,
    }
    assert not Notification.objects.filter(kind=Kind.YOUR_TURN, game=game, version__gt=game.version)
    # Its turns are over: the turn notices of the game are read (they stayed unread, "your
    # turn, play by Tuesday", in the inbox of a game that had ended); its end is not.
    turns = Notification.objects.filter(game=game, kind__in=outbox.TURN_NOTICES)
    assert turns.exists() and not turns.filter(read=False).exists()
    assert not finished.filter(read=True).exists()


def test_a_refused_or_rolled_back_write_writes_no_notification(users: list[User]) -> None:
    game = started_game(users[:2], turn_timeout=3600)
    actor = game.current_seat
    assert actor is not None
    before = Notification.objects.count()

    with pytest.raises(IllegalMove):
        play.game_act(player=users[1 - actor], game_id=game.pk, action={"action": "draw"})
    with pytest.raises(RuntimeError), transaction.atomic():
        play.game_act(player=users[actor], game_id=game.pk, action={"action": "draw"})
        raise RuntimeError("the caller's transaction fails after the write")
    waiting = game_create(player=users[2], spec=NewGame(max_players=3))
    with pytest.raises(Exception, match="already"):
        game_join(player=users[2], game_id=waiting.pk)

    assert Notification.objects.count() == before


def test_an_invitation_is_a_fact_of_a_write(users: list[User]) -> None:
    """The tables issue will invite through this; the row comes with the write's commit."""
    from service.unit_of_work import game_write

    waiting = game_create(player=users[0], spec=NewGame(max_players=3))
    with game_write(waiting.pk) as write:
        outbox.invite(write, player=users[3], by=users[0])
    invited = Notification.objects.get(kind=Kind.INVITED)
    assert invited.player == users[3] and invited.game_id == waiting.pk
    assert invited.data == {"by": {"id": users[0].pk, "username": users[0].username}}


CARD = re.compile("|".join(re.escape(card) for card in sorted(CARD_CODES, key=len, reverse=True)))


def test_no_notification_shows_a_card(users: list[User]) -> None:
    """Play a whole game of timeouts and draws: no notification names any card code."""
    game = started_game(users[:3], turn_timeout=3600, max_timeouts=1)
    while True:
        game.refresh_from_db()
        if game.status != "active":
            break
        actor = game.current_seat
        assert actor is not None
        play.game_resign(player=users[actor], game_id=game.pk)
    assert Hand.objects.filter(game=game).exists()
    for notification in Notification.objects.filter(game=game):
        text = json.dumps(notification.data)
        assert not CARD.search(text), (notification.kind, text)


def test_an_actions_notification_travels_in_the_message_of_its_events(
    users: list[User], django_assert_num_queries: object
) -> None:
    game = started_game(users[:2], turn_timeout=3600)
    while True:  # a draw that moves the turn on (a playable drawn card keeps it)
        game.refresh_from_db()
        actor = game.current_seat
        assert actor is not None
        before = Notification.objects.filter(kind=Kind.YOUR_TURN).count()
        with django_assert_num_queries(4) as captured:  # type: ignore[operator]
            played = play.game_act(player=users[actor], game_id=game.pk, action={"action": "draw"})
        if played.game.current_seat != actor:
            break
        play.game_act(player=users[actor], game_id=game.pk, action={"action": "pass"})
    writes = captured.captured_queries[2]["sql"]
    assert writes.startswith('WITH w0 AS (INSERT INTO "games_event"')
    assert 'INSERT INTO "notifications_notification"' in writes
    assert Notification.objects.filter(kind=Kind.YOUR_TURN).count() == before + 1


@pytest.mark.django_db(transaction=True)
def test_an_action_whose_players_have_nowhere_to_be_notified_costs_nothing_after_commit(
    users: list[User], receiver: Receiver
) -> None:
    """The outbox rows of a player with no webhook and no push subscription are written
    dispatched already, so nothing is drained after the commit; a listening player's wait."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from notifications.models import Webhook

    game = started_game(users[:2], turn_timeout=3600)
    for _ in range(2):
        game.refresh_from_db()
        actor = game.current_seat
        assert actor is not None
        with CaptureQueriesContext(connection) as captured:
            play.game_act(player=users[actor], game_id=game.pk, action={"action": "draw"})
        assert len(captured.captured_queries) == 4, [q["sql"] for q in captured.captured_queries]
        if Game.objects.get(pk=game.pk).current_seat == actor:
            play.game_act(player=users[actor], game_id=game.pk, action={"action": "pass"})
    assert not Notification.objects.filter(dispatched=False).exists()

    Webhook.objects.create(
        player=users[0], url=receiver.url, kinds=["your_turn"], secret=new_secret()
    )
    for _ in range(2):  # the turn goes round to seat 0 anew: seat 0 now listens
        game.refresh_from_db()
        actor = game.current_seat
        assert actor is not None
        played = play.game_act(player=users[actor], game_id=game.pk, action={"action": "draw"})
        if played.game.current_seat == actor:
            play.game_act(player=users[actor], game_id=game.pk, action={"action": "pass"})
    turn = Notification.objects.filter(kind=Kind.YOUR_TURN, player=users[0]).latest("id")
    (request,) = receiver.received(1)
    assert request.headers["webhook-id"] == str(turn.pk)
    assert WebhookDelivery.objects.get().status == "succeeded"


def _turns(user: User, game: Game) -> list[tuple[str, bool]]:
    rows = Notification.objects.filter(player=user, game=game, kind__in=outbox.TURN_NOTICES)
    return [(n.kind, n.read) for n in rows.order_by("id")]


def test_a_newer_turn_notice_of_a_game_makes_the_older_unread_ones_read(
    users: list[User],
) -> None:
    """A correspondence game wrote an unread ``your_turn`` for every turn: the inbox's unread
    count grew by one a move. A turn notice now makes the player's older unread turn notices
    of that game read (they stay listed); other games' and other kinds' notices stay unread,
    and a turn's reminder supersedes its ``your_turn`` too."""
    game = started_game(users[:2], turn_timeout=86_400)
    elsewhere = started_game([users[0], users[2]], turn_timeout=86_400)
    if elsewhere.current_seat != 0:  # make the other game wait for users[0] too
        play.game_act(player=users[2], game_id=elsewhere.pk, action={"action": "draw"})
        elsewhere.refresh_from_db()
        if elsewhere.current_seat != 0:
            play.game_act(player=users[2], game_id=elsewhere.pk, action={"action": "pass"})
    unread_elsewhere = [
        n.pk for n in Notification.objects.filter(player=users[0], game=elsewhere, read=False)
    ]
    assert (Kind.YOUR_TURN.value, False) in _turns(users[0], elsewhere)
    others_before = set(
        Notification.objects.filter(player=users[0], game=game, read=False)
        .exclude(kind__in=outbox.TURN_NOTICES)
        .values_list("pk", flat=True)
    )
    assert others_before  # the game's start, the seat taken: not turn notices

    for _ in range(60):
        game.refresh_from_db()
        if len(_turns(users[0], game)) >= 3 and game.current_seat == 0:
            break
        actor = game.current_seat
        assert actor is not None
        after = play.game_act(player=users[actor], game_id=game.pk, action={"action": "draw"})
        if after.game.current_seat == actor:  # a playable card drawn: keep it
            play.game_act(player=users[actor], game_id=game.pk, action={"action": "pass"})
    turns = _turns(users[0], game)
    assert len(turns) >= 3 and game.current_seat == 0, turns
    assert turns == [(Kind.YOUR_TURN.value, True)] * (len(turns) - 1) + [
        (Kind.YOUR_TURN.value, False)
    ]
    assert (
        set(
            Notification.objects.filter(player=users[0], game=game, read=False)
            .exclude(kind__in=outbox.TURN_NOTICES)
            .values_list("pk", flat=True)
        )
        == others_before
    )
    assert all(not n.read for n in Notification.objects.filter(pk__in=unread_elsewhere))
    inbox = client_for(users[0]).get("/api/v1/notifications/", {"unread": "true"}).json()
    assert inbox["count"] == len(others_before) + 1 + len(unread_elsewhere)

    # The turn's reminder: the newest turn notice of the game, the only unread one.
    game.refresh_from_db()
    assert game.turn_deadline is not None
    pass_time(game, (game.turn_deadline - timezone.now()).total_seconds() - 60)
    assert reminders.remind(game.pk, game.version) is True
    turns = _turns(users[0], game)
    assert turns[-1] == (Kind.DEADLINE_SOON.value, False)
    assert [read for _, read in turns[:-1]] == [True] * (len(turns) - 1)
