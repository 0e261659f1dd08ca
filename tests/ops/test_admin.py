"""The Django admin under attack (issue 11): its login form is throttled like the token endpoint,
and it shows staff no card the game view would hide from them until the game is finished."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import Event, Game, Hand
from tests.support.players import PASSWORD, MakePlayer
from tests.support.table import SEED, start_table

pytestmark = pytest.mark.django_db

LOGIN = "/admin/login/"
SetRates = Callable[..., None]


def log_in(client: Client, username: str, password: str) -> int:
    answer = client.post(LOGIN, {"username": username, "password": password, "next": "/admin/"})
    return answer.status_code


def test_the_admin_login_is_throttled(throttle_rates: SetRates, make_player: MakePlayer) -> None:
    """Forty wrong passwords for a staff account were all answered, then the right one let in."""
    throttle_rates(admin_login="3/minute")
    boss = make_player("boss", staff=True)
    guesser = Client()

    wrong = [log_in(guesser, boss.user.username, f"guess {i}") for i in range(3)]
    right = guesser.post(LOGIN, {"username": boss.user.username, "password": PASSWORD})
    elsewhere = Client(REMOTE_ADDR="198.51.100.7")

    assert wrong == [200, 200, 200], "the form answers wrong passwords, without a session"
    assert right.status_code == 429, right.content
    body = right.json()
    assert body["code"] == "throttled" and body["detail"]
    assert int(right["Retry-After"]) > 0
    assert guesser.get("/admin/").status_code == 302, "still not signed in"
    assert guesser.get(LOGIN).status_code == 200, "showing the form is not an attempt"
    assert log_in(elsewhere, boss.user.username, PASSWORD) == 302, (
        "another address has its own count"
    )


# --- hidden cards ---------------------------------------------------------------------------------


def change_page(client: Client, model: str, pk: object) -> str:
    answer = client.get(f"/admin/games/{model}/{pk}/change/", follow=True)
    assert answer.status_code == 200
    return answer.content.decode()


def test_the_admin_hides_cards_of_unfinished_games_from_staff(make_player: MakePlayer) -> None:
    """A staff user seated in a game read the opponent's hand and the deck and seed here."""
    boss = make_player("boss", staff=True)
    boss.user.is_superuser = True  # every permission of the admin
    boss.user.save()
    table = start_table([boss, make_player("bob")], seed=SEED)
    admin = Client()
    admin.force_login(boss.user)
    theirs = Hand.objects.get(game_id=table.id, seat=1)
    mine = Hand.objects.get(game_id=table.id, seat=0)
    started = Event.objects.get(game_id=table.id, type="game_started")
    dealt = Event.objects.filter(game_id=table.id, type="round_started").get()
    seed = str(Game.objects.get(pk=table.id).seed)

    hands = admin.get("/admin/games/hand/").content.decode()
    their_page = change_page(admin, "hand", theirs.pk)
    my_page = change_page(admin, "hand", mine.pk)
    started_page = change_page(admin, "event", started.pk)
    dealt_page = change_page(admin, "event", dealt.pk)

    assert f"/admin/games/hand/{theirs.pk}/" not in hands
    assert f"/admin/games/hand/{mine.pk}/" in hands, "their own hand is theirs to see"
    assert not any(card in their_page for card in set(theirs.cards) - set(mine.cards))
    assert all(card in my_page for card in mine.cards)
    assert seed not in started_page
    assert "deck" not in dealt_page
    # Nor what derives the deck: the salt, or an event's hash (issue 16, docs/fairness.md).
    game = Game.objects.get(pk=table.id)
    game_page = change_page(admin, "game", table.id)
    for page in (game_page, started_page, dealt_page):
        assert game.salt not in page and game.last_hash not in page
        assert started.hash not in page and dealt.hash not in page

    resigned = table.players[1].client.post(table.url("resign"))
    assert resigned.status_code == 200, resigned.content
    assert Game.objects.get(pk=table.id).status == "finished"

    assert f"/admin/games/hand/{theirs.pk}/" in admin.get("/admin/games/hand/").content.decode()
    assert seed in change_page(admin, "event", started.pk), "a finished game shows everything"
    assert "deck" in change_page(admin, "event", dealt.pk)
    assert dealt.hash in change_page(admin, "event", dealt.pk)


# --- users: the guests' form of name --------------------------------------------------------------


def superuser_client(make_player: MakePlayer) -> Client:
    boss = make_player("boss", staff=True)
    boss.user.is_superuser = True
    boss.user.save()
    client = Client()
    client.force_login(boss.user)
    return client


def add_user(client: Client, username: str) -> str:
    answer = client.post(
        "/admin/auth/user/add/",
        {
            "username": username,
            "usable_password": "true",
            "password1": "a long enough phrase 31",
            "password2": "a long enough phrase 31",
            "_save": "Save",
        },
    )
    assert answer.status_code in (200, 302), answer.status_code
    return answer.content.decode()


@pytest.mark.parametrize("name", ["guest-k3m9p2qx", "Guest-Anna"])
def test_staff_cannot_give_a_user_a_guests_name(make_player: MakePlayer, name: str) -> None:
    """A user staff made in the admin as `guest-…` passed for a guest (the API refuses the name
    with `username_reserved`; the admin took it)."""
    client = superuser_client(make_player)

    page = add_user(client, name)

    assert "are the names given to guests" in page
    assert not User.objects.filter(username__iexact=name).exists()
    add_user(client, "guestbook")  # the prefix is `guest-`: other names beginning alike pass
    assert User.objects.filter(username="guestbook").exists()


def test_a_user_renamed_in_the_admin_keeps_clear_of_guests_names(
    make_player: MakePlayer,
) -> None:
    from players.admin import UserChange
    from players.services import guest_create

    plain = make_player("plain").user
    renamed = UserChange(data={**user_fields(plain), "username": "guest-abc"}, instance=plain)
    assert not renamed.is_valid()
    assert renamed.errors["username"] == [
        "Names beginning with 'guest-' are the names given to guests; choose another."
    ]
    guest, _ = guest_create()
    kept = UserChange(data=user_fields(guest), instance=guest)
    assert kept.is_valid(), kept.errors  # a guest's own name stays its name when staff edit it


def user_fields(user: User) -> dict[str, object]:
    return {
        "username": user.username,
        "is_active": "on",
        "date_joined": user.date_joined.strftime("%Y-%m-%d %H:%M:%S"),
    }


def test_staff_keep_clear_of_the_bots_names_but_a_bot_keeps_its_own(
    make_player: MakePlayer,
) -> None:
    """A built-in bot's form of name (``bot-<level>-<n>``) is refused in the admin as on the API,
    but a bot's own name stays its name when staff edit it."""
    from players.admin import UserChange
    from service.bots import bot_user

    page = add_user(superuser_client(make_player), "Bot-Strong-3")
    assert "are the names of the server" in page
    assert not User.objects.filter(username__iexact="bot-strong-3").exists()

    plain = make_player("plain").user
    renamed = UserChange(data={**user_fields(plain), "username": "bot-basic-9"}, instance=plain)
    assert not renamed.is_valid()
    bot = bot_user("basic", set())
    kept = UserChange(data={**user_fields(bot), "is_active": ""}, instance=bot)
    assert kept.is_valid(), kept.errors
