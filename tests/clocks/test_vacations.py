"""Vacations through HTTP: a player's clocks stand still in correspondence games, not in live
ones; ending one early brings the deadlines back; 14 days a calendar year."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Game
from notifications.models import Kind, Notification
from players.models import Vacation
from service import reminders
from tests.support.players import Player, client_with
from tests.support.table import SEED, Table, ok, refused, start_table
from tests.support.timeouts import pass_time

pytestmark = pytest.mark.django_db
VACATION = "/api/v1/players/me/vacation/"
DAY = timedelta(days=1)


def go_away(player: Player, days: int) -> dict[str, Any]:
    return ok(player.client.post(VACATION, {"days": days}, format="json"), 201)


def come_back(player: Player) -> dict[str, Any]:
    return ok(player.client.delete(VACATION))


def game_of(table: Table) -> Game:
    return Game.objects.get(pk=table.id)


def deadline_of(table: Table) -> datetime:
    deadline = game_of(table).turn_deadline
    assert deadline is not None
    return deadline


def when(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def test_a_vacation_moves_the_deadline_past_its_end_by_the_time_that_was_left(
    players: list[Player],
) -> None:
    table = start_table(players[:2], seed=SEED, turn_timeout=2 * 86400)
    actor = table.actor()
    before = deadline_of(table)

    vacation = go_away(table.players[actor], 3)

    starts, ends = when(vacation["starts_at"]), when(vacation["ends_at"])
    assert ends - starts == 3 * DAY
    assert vacation["days_left"] == pytest.approx(11, abs=0.01)
    assert deadline_of(table) == ends + (before - starts)
    seen = table.view(1 - actor)
    assert when(seen["seats"][actor]["on_vacation_until"]) == ends
    assert when(seen["round"]["turn_deadline"]) == ends + (before - starts)
    assert "on_vacation_until" not in seen["seats"][1 - actor]


def test_ending_a_vacation_early_brings_the_deadline_back_to_now_plus_what_was_left(
    players: list[Player],
) -> None:
    table = start_table(players[:2], seed=SEED, turn_timeout=86400)
    actor = table.actor()
    before = deadline_of(table)
    started = when(go_away(table.players[actor], 5)["starts_at"])

    ended = when(come_back(table.players[actor])["ends_at"])

    assert deadline_of(table) == ended + (before - started)
    assert "on_vacation_until" not in table.view(1 - actor)["seats"][actor]
    refused(table.players[actor].client.delete(VACATION), 409, "not_on_vacation")


def test_a_seat_a_bot_plays_on_shows_no_vacation(players: list[Player]) -> None:
    """A player who left their seat to a bot (``bot_takeover``) and then went away: the seat
    said it was on vacation, while the bot's clock ran on, as it should."""
    table = start_table(players[:3], seed=SEED, turn_timeout=86400, bot_takeover=True)
    leaver = (table.actor() + 1) % 3
    ok(table.players[leaver].client.post(table.url("resign")))
    go_away(table.players[leaver], 2)
    seen = table.view((leaver + 1) % 3)["seats"][leaver]
    assert seen["bot"] == "basic" and "on_vacation_until" not in seen, seen


def test_a_live_game_is_not_paused(players: list[Player]) -> None:
    table = start_table(players[:2], seed=SEED, turn_timeout=600)
    actor = table.actor()
    before = deadline_of(table)
    go_away(table.players[actor], 2)
    assert deadline_of(table) == before
    assert "on_vacation_until" not in table.view(1 - actor)["seats"][actor]


def test_a_turn_that_reaches_a_player_on_vacation_waits_for_its_end(
    players: list[Player],
) -> None:
    table = start_table(players[:2], seed=SEED, turn_timeout=3600)
    actor = table.actor()
    away = table.players[1 - actor]
    ends = when(go_away(away, 1)["ends_at"])

    while table.actor() == actor:
        view = table.view(actor)
        action = next(a for a in view["you"]["legal_actions"] if a["action"] in ("draw", "pass"))
        ok(table.post(actor, action))

    game = game_of(table)
    assert game.turn_deadline == ends + timedelta(seconds=3600)


def test_a_bank_stands_still_while_its_player_is_away(players: list[Player]) -> None:
    """A day of a 2-day vacation passes during the seat's turn: coming back and moving at
    once, the seat has lost none of its bank."""
    clock = {"type": "bank", "initial": 7200, "increment": 600, "max": 86400}
    began = timezone.now()
    table = start_table(players[:2], seed=SEED, clock=clock)
    actor = table.actor()
    go_away(table.players[actor], 2)
    pass_time(game_of(table), 86400, players=[p.user for p in table.players])
    come_back(table.players[actor])

    view = table.view(actor)
    action = next(a for a in view["you"]["legal_actions"] if a["action"] == "draw")
    after = ok(table.post(actor, action))
    # The bank lost at most what the requests took outside the vacation (seconds on a loaded
    # machine), never the day away.
    took = (timezone.now() - began).total_seconds()
    assert 7200 + 600 - round(took) <= after["seats"][actor]["bank"] <= 7200 + 600


def test_deadline_soon_follows_the_bank_and_the_vacation(players: list[Player]) -> None:
    clock = {"type": "bank", "initial": 1000, "increment": 100, "max": 2000}
    table = start_table(players[:2], seed=SEED, clock=clock)
    actor = table.actor()
    game = game_of(table)
    assert reminders.remind_due() == 0  # 80% of a day's move clock would have passed already

    users = [p.user for p in table.players]
    pass_time(game, 790)  # 79% of the bank
    assert reminders.remind_due() == 0
    go_away(table.players[actor], 1)
    pass_time(game, 60, players=users)  # a minute of the vacation: the clock stood still
    assert reminders.remind_due() == 0
    come_back(table.players[actor])  # 10 s before the 80%
    assert reminders.remind_due() == 0
    pass_time(game, 11, players=users)
    assert reminders.remind_due() == 1
    (reminder,) = Notification.objects.filter(kind=Kind.DEADLINE_SOON, game_id=table.id)
    assert reminder.player == table.players[actor].user
    assert reminder.data["deadline"] == deadline_of(table).isoformat()


def test_a_year_allows_fourteen_vacation_days(players: list[Player]) -> None:
    player = players[0]
    now = timezone.now()
    year_start = datetime(now.year, 1, 1, tzinfo=UTC)
    if now - year_start < 10 * DAY or now + 5 * DAY >= datetime(now.year + 1, 1, 1, tzinfo=UTC):
        pytest.skip("the year's first or last days: the past ten days fall in another year")
    Vacation.objects.create(player=player.user, starts_at=now - 10 * DAY, ends_at=now - DAY)
    Vacation.objects.create(player=player.user, starts_at=now - DAY, ends_at=now - DAY / 2)
    # 9.5 days taken: 5 more do not fit, 4 do.
    body = refused(
        player.client.post(VACATION, {"days": 5}, format="json"), 409, "vacation_days_used_up"
    )
    assert "4.5" in body["detail"]
    assert Vacation.objects.filter(player=player.user).count() == 2
    assert go_away(player, 4)["days_left"] == pytest.approx(0.5, abs=0.01)
    refused(player.client.post(VACATION, {"days": 1}, format="json"), 409, "already_on_vacation")


def test_what_is_left_after_a_vacation_ended_at_once_is_not_said_to_be_more(
    players: list[Player],
) -> None:
    """A vacation ended after a moment answered 14 days left, and then refused 14 days with
    '14 vacation days are left: 14 do not fit'."""
    player = players[0]
    go_away(player, 2)
    left = come_back(player)["days_left"]
    assert 13.99 <= left < 14
    body = refused(
        player.client.post(VACATION, {"days": 14}, format="json"), 409, "vacation_days_used_up"
    )
    assert body["detail"].startswith("13.99 vacation days are left"), body["detail"]
    assert go_away(player, 13)["days_left"] < 1


@pytest.mark.parametrize(
    "body",
    [
        {"days": 0},
        {"days": 15},
        {"days": "3"},
        {"days": 2.5},
        {},
        [3],
        {"days": None},
        {"days": 2, "x": 1},
    ],
)
def test_a_bad_vacation_is_refused_with_a_code(players: list[Player], body: Any) -> None:
    refused(players[0].client.post(VACATION, body, format="json"), 400, "invalid")
    assert not Vacation.objects.exists()


def test_a_vacation_needs_a_signed_in_player(players: list[Player]) -> None:
    refused(
        client_with("not-a-token").post(VACATION, {"days": 1}, format="json"),
        401,
        "not_authenticated",
    )
    refused(client_with("not-a-token").delete(VACATION), 401, "not_authenticated")


def test_the_own_profile_says_until_when_a_vacation_runs(players: list[Player]) -> None:
    ada, bob = players[:2]
    profile = "/api/v1/players/me/"
    assert ok(ada.client.get(profile))["on_vacation_until"] is None

    started = go_away(ada, 3)

    assert when(ok(ada.client.get(profile))["on_vacation_until"]) == when(started["ends_at"])
    assert "on_vacation_until" not in ok(bob.client.get(f"/api/v1/players/{ada.user.pk}/"))
    come_back(ada)
    assert ok(ada.client.get(profile))["on_vacation_until"] is None
