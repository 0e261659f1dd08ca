"""Blocks and reports through HTTP (issue 27, item 3): a block keeps two players apart both
ways (no seat at one table, quick match seats them apart where another seating exists, a
rematch neither invites nor waits for one kept apart), is listed and ends; a report lands for
staff with its game and seq and is seen by its author only; staff silence a reported player's
chat from the admin."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.admin.sites import site as admin_site
from django.test import RequestFactory
from django.utils import timezone

from games.models import ChatMessage, Game
from players.admin import ReportAdmin, chat_lines_around
from players.models import Block, ChatSilence, Report
from players.safety import chat_silenced_until, kept_apart
from tests.support.players import PASSWORD, Player
from tests.support.table import create_game, ok, refused

pytestmark = pytest.mark.django_db

MATCH = "/api/v1/matchmaking/"
BLOCKS = "/api/v1/players/me/blocks/"
REPORTS = "/api/v1/reports/"


def block_url(player: Player) -> str:
    return f"/api/v1/players/{player.id}/block/"


def _match(player: Player, **body: Any) -> dict[str, Any]:
    return ok(player.client.post(MATCH, body, format="json"))


def test_a_block_is_made_once_listed_and_ended(players: list[Player]) -> None:
    ada, bob, cy, _ = players
    made = ok(ada.client.post(block_url(bob)), 201)
    assert made["player"] == {"id": bob.id, "username": bob.user.username}
    assert ok(ada.client.post(block_url(bob)), 200)["player"]["id"] == bob.id  # once
    ok(ada.client.post(block_url(cy)), 201)
    listed = ok(ada.client.get(BLOCKS))["blocks"]
    assert [row["player"]["id"] for row in listed] == [cy.id, bob.id]
    assert ok(bob.client.get(BLOCKS))["blocks"] == []  # the blocked player's list is their own
    assert kept_apart(bob.id) == {ada.id}  # ... but the block works both ways

    assert ada.client.delete(block_url(bob)).status_code == 204
    assert ada.client.delete(block_url(bob)).status_code == 204  # nothing left: still 204
    assert [row["player"]["id"] for row in ok(ada.client.get(BLOCKS))["blocks"]] == [cy.id]


def test_blocking_oneself_or_nobody_is_refused_and_changes_nothing(players: list[Player]) -> None:
    ada = players[0]
    refused(ada.client.post(block_url(ada)), 400, "invalid")
    refused(ada.client.post("/api/v1/players/999999/block/"), 404, "not_found")
    refused(ada.client.delete("/api/v1/players/999999/block/"), 404, "not_found")
    assert not Block.objects.exists()


def test_kept_apart_they_take_no_seat_at_one_table_either_way(players: list[Player]) -> None:
    ada, bob, cy, _ = players
    ok(bob.client.post(block_url(ada)), 201)  # Bob blocks Ada
    game = create_game(ada, max_players=3)
    refused(bob.client.post(f"/api/v1/games/{game['id']}/join/"), 403, "blocked")
    theirs = create_game(bob, max_players=3)
    refused(ada.client.post(f"/api/v1/games/{theirs['id']}/join/"), 403, "blocked")
    assert ok(cy.client.post(f"/api/v1/games/{game['id']}/join/"))["you"]["seat"] == 1
    assert [s.player_id for s in Game.objects.get(pk=game["id"]).seats.all()] == [ada.id, cy.id]


def test_quick_match_seats_players_kept_apart_at_different_tables(players: list[Player]) -> None:
    ada, bob, cy, dee = players
    first = _match(ada, players=3)
    ok(bob.client.post(block_url(ada)), 201)
    # Bob would have joined Ada's game: another seating exists, a new table.
    apart = _match(bob, players=3)
    assert apart["id"] != first["id"] and apart["you"]["seat"] == 0
    # The others are seated as ever, in the oldest game.
    assert _match(cy, players=3)["id"] == first["id"]
    assert _match(dee, players=3)["id"] == first["id"]


def _finished_game(seated: list[Player]) -> str:
    """A game of ``seated`` ended by forfeits (every seat after the first resigns)."""
    host, *others = seated
    game = create_game(host, max_players=len(seated))["id"]
    for player in others:
        ok(player.client.post(f"/api/v1/games/{game}/join/"))
    for player in others:
        ok(player.client.post(f"/api/v1/games/{game}/resign/"))
    return str(game)


def _invited_to(player: Player, game: str) -> bool:
    page = ok(player.client.get("/api/v1/notifications/"))
    return any(n["kind"] == "invited" and n["game"] == game for n in page["results"])


def test_a_rematch_neither_invites_nor_waits_for_one_kept_apart(players: list[Player]) -> None:
    ada, bob, cy, _ = players
    old = _finished_game([ada, bob, cy])
    ok(bob.client.post(block_url(ada)), 201)  # after the game: Bob blocks Ada
    rematch = ok(ada.client.post(f"/api/v1/games/{old}/rematch/"))["id"]
    assert _invited_to(cy, rematch) and not _invited_to(bob, rematch)
    # Cy joins: the rematch starts without Bob, who could take no seat at it.
    started = ok(cy.client.post(f"/api/v1/games/{old}/rematch/"))
    assert started["id"] == rematch and started["status"] == "active"
    assert {seat["player"]["id"] for seat in started["seats"]} == {ada.id, cy.id}
    refused(bob.client.post(f"/api/v1/games/{old}/rematch/"), 403, "blocked")
    assert Game.objects.get(pk=rematch).seats.count() == 2


def test_a_rematch_waits_for_one_kept_apart_in_it_only_while_nobody_apart_sits(
    players: list[Player],
) -> None:
    ada, bob, cy, _ = players
    old = _finished_game([ada, bob, cy])
    ok(bob.client.post(block_url(cy)), 201)  # neither blocked Ada, who asks first
    rematch = ok(ada.client.post(f"/api/v1/games/{old}/rematch/"))["id"]
    assert _invited_to(bob, rematch) and _invited_to(cy, rematch)
    joined = ok(bob.client.post(f"/api/v1/games/{old}/rematch/"))
    assert joined["status"] == "active"  # Cy, kept apart from Bob, is not waited for
    refused(cy.client.post(f"/api/v1/games/{old}/rematch/"), 403, "blocked")


def test_a_report_is_seen_by_its_author_and_staff_only(
    players: list[Player], staff: Player
) -> None:
    ada, bob, cy, _ = players
    game = create_game(ada, max_players=2)
    ok(bob.client.post(f"/api/v1/games/{game['id']}/join/"))  # full: it starts
    assert Game.objects.get(pk=game["id"]).version >= 2
    body = {"player": bob.id, "reason": "abuse", "note": "rude", "game": game["id"], "seq": 2}
    made = ok(ada.client.post(REPORTS, body, format="json"), 201)
    assert made["player"]["id"] == bob.id and (made["reason"], made["seq"]) == ("abuse", 2)
    assert made["handled"] is False
    assert [r["id"] for r in ok(ada.client.get(REPORTS))["reports"]] == [made["id"]]
    assert ok(bob.client.get(REPORTS))["reports"] == []  # the reported player sees nothing
    assert ok(cy.client.get(REPORTS))["reports"] == []
    row = Report.objects.get()
    assert (row.reporter_id, row.reported_id, str(row.game_id)) == (ada.id, bob.id, game["id"])

    # Staff silence the reported player's chat from the admin, for 24 hours.
    request = RequestFactory().post("/admin/players/report/")
    request.user = staff.user
    admin = ReportAdmin(Report, admin_site)
    admin.message_user = lambda *args, **kwargs: None  # type: ignore[method-assign]
    silence = next(a for a in admin.actions if getattr(a, "__name__", "") == "silence_24h")
    assert callable(silence)  # an action, not an action's name
    silence(admin, request, Report.objects.all())
    until = chat_silenced_until(bob.id)
    assert until is not None
    assert 23.9 < (until - timezone.now()).total_seconds() / 3600 <= 24
    assert ChatSilence.objects.get().by_id == staff.id and Report.objects.get().handled
    assert chat_silenced_until(ada.id) is None


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"player": None, "reason": "abuse"}, 400, "invalid"),  # nobody named
        ({"player": 0, "reason": "abuse"}, 404, "not_found"),
        ({"reason": "because"}, 400, "invalid"),  # not one of the reasons
        ({"reason": "abuse", "note": "x" * 501}, 400, "invalid"),
        ({"reason": "abuse", "seq": 3}, 400, "invalid"),  # a seq without its game
        ({"reason": "abuse", "game": "00000000-0000-0000-0000-000000000000"}, 404, "not_found"),
        ({"reason": "abuse", "colour": "red"}, 400, "invalid"),  # an unknown field
    ],
)
def test_a_bad_report_is_refused_with_a_code_and_stores_nothing(
    players: list[Player], body: dict[str, Any], status: int, code: str
) -> None:
    ada, bob, _, _ = players
    sent = {key: value for key, value in {"player": bob.id, **body}.items() if value is not None}
    refused(ada.client.post(REPORTS, sent, format="json"), status, code)
    assert not Report.objects.exists()


def test_reporting_oneself_or_a_seq_past_the_game_is_refused(players: list[Player]) -> None:
    ada, bob, _, _ = players
    game = create_game(ada, max_players=2)
    refused(
        ada.client.post(REPORTS, {"player": ada.id, "reason": "spam"}, format="json"),
        400,
        "invalid",
    )
    past = {"player": bob.id, "reason": "spam", "game": game["id"], "seq": 99}
    refused(ada.client.post(REPORTS, past, format="json"), 400, "seq_out_of_range")
    # A private game the reporter cannot see is no game of theirs.
    private = create_game(bob, max_players=2, private=True)
    hidden = {"player": bob.id, "reason": "spam", "game": private["id"]}
    refused(ada.client.post(REPORTS, hidden, format="json"), 404, "not_found")
    assert not Report.objects.exists()


def test_staff_read_the_chat_around_a_reports_seq(players: list[Player]) -> None:
    ada, bob, _, _ = players
    game = create_game(ada, max_players=2)
    ok(bob.client.post(f"/api/v1/games/{game['id']}/join/"))
    said = {
        1: ("bob", "far before"),
        15: ("bob", "you are <b>bad</b>"),
        16: ("ada", "stop it"),
        40: ("bob", "far after"),
    }
    for version, (who, text) in said.items():
        author = bob.user if who == "bob" else ada.user
        ChatMessage.objects.create(game_id=game["id"], author=author, text=text, version=version)
    report = Report.objects.create(
        reporter=ada.user, reported=bob.user, reason="abuse", game_id=game["id"], seq=16
    )
    lines = chat_lines_around(report)
    assert [(seq, who, text) for _, seq, who, text in lines] == [
        (15, bob.user.username, "you are <b>bad</b>"),
        (16, ada.user.username, "stop it"),
    ]
    shown = str(ReportAdmin(Report, admin_site).chat_around(report))
    assert "you are &lt;b&gt;bad&lt;/b&gt;" in shown and "<b>" not in shown  # escaped
    assert "far before" not in shown and "far after" not in shown


def _delete_account(player: Player) -> None:
    player.user.set_password(PASSWORD)
    player.user.save(update_fields=["password"])
    answer = player.client.post("/api/v1/players/me/delete/", {"password": PASSWORD}, format="json")
    assert answer.status_code == 204, answer.content


def test_a_rematch_neither_invites_nor_waits_for_a_deleted_account(players: list[Player]) -> None:
    """It waited, private and reserved, for an account that can never take a seat."""
    ada, bob, cy, _ = players
    old = _finished_game([ada, bob, cy])
    _delete_account(cy)

    rematch = ok(ada.client.post(f"/api/v1/games/{old}/rematch/"))["id"]
    assert _invited_to(bob, rematch)
    started = ok(bob.client.post(f"/api/v1/games/{old}/rematch/"))
    assert started["id"] == rematch and started["status"] == "active"
    assert {seat["player"]["id"] for seat in started["seats"]} == {ada.id, bob.id}


@pytest.mark.parametrize("gone", ["deleted", "blocked"])
def test_no_rematch_is_made_when_nobody_could_come(players: list[Player], gone: str) -> None:
    """A rematch of two whose other player deleted their account, or blocked the caller, since:
    it was made and waited for nobody, counting among the caller's waiting games."""
    ada, bob, _, _ = players
    old = _finished_game([ada, bob])
    if gone == "deleted":
        _delete_account(bob)
    else:
        ok(bob.client.post(block_url(ada)), 201)
    games = Game.objects.count()

    refused(ada.client.post(f"/api/v1/games/{old}/rematch/"), 409, "not_enough_players")
    assert Game.objects.count() == games
    assert Game.objects.get(pk=old).rematch_id is None
