"""A player's own data as one file (``GET /api/v1/players/me/export/``): every part of the account
in the shapes the API shows them elsewhere, as a download that the published schema describes;
nothing of anyone else's but the names beside the player's, no card, no secret."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from games.engine.cards import CARD_CODES
from notifications.models import PushSubscription, Webhook
from tests.support.contract import conforms, published_schema
from tests.support.players import MakeUser, Player, client_with, player_for
from tests.support.table import create_game, ok, refused, start_table
from tests.support.tournaments import create as create_tournament
from tests.support.tournaments import url as tournament_url

pytestmark = pytest.mark.django_db

EXPORT = "/api/v1/players/me/export/"


@pytest.fixture
def people(make_player: MakeUser) -> list[Player]:
    return [player_for(make_player(name, email=f"{name}@example.com")) for name in ("ana", "bo")]


def strings_in(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)


def test_the_file_holds_every_part_of_the_account(people: list[Player]) -> None:
    ana, bo = people
    duel = start_table([ana, bo], turn_timeout=86400)
    ok(ana.client.post(duel.url("chat"), {"text": "good luck"}, format="json"), 201)
    ok(bo.client.post(duel.url("chat"), {"text": "you too"}, format="json"), 201)
    waiting = create_game(ana, max_players=3)
    challenge = ok(bo.client.post("/api/v1/challenges/", {"to": "ana"}, format="json"), 201)
    cup = create_tournament(bo)
    ok(ana.client.post(tournament_url(cup["id"], "join")))
    ok(ana.client.post(f"/api/v1/players/{bo.id}/block/"), 201)
    report = {"player": bo.id, "reason": "abuse", "game": duel.id}
    ok(ana.client.post("/api/v1/reports/", report, format="json"), 201)
    about_her = {"player": ana.id, "reason": "abuse", "note": "bo's note"}
    ok(bo.client.post("/api/v1/reports/", about_her, format="json"), 201)
    Webhook.objects.create(player=ana.user, url="https://example.com/uno", secret="whsec_ana")
    PushSubscription.objects.create(
        player=ana.user, endpoint="https://push.example.com/ana", p256dh="ana-key", auth="ana-auth"
    )
    ok(ana.client.post("/api/v1/players/me/vacation/", {"days": 2}, format="json"), 201)

    answer = ana.client.get(EXPORT)

    assert answer.status_code == 200, answer.content
    assert answer["Content-Disposition"] == (
        f"attachment; filename=\"uno-{ana.id}.json\"; filename*=UTF-8''uno-ana.json"
    )
    conforms(published_schema(), EXPORT, "GET", answer, EXPORT)
    data = answer.json()
    assert data["format"] == 1
    assert data["profile"] == ok(ana.client.get("/api/v1/players/me/"))
    assert data["account"]["email"] == "ana@example.com"
    assert [s["current"] for s in data["sessions"]] == [True]
    # Her games, newest first, with her seat; the duel's summary as the game list shows it.
    assert [g["id"] for g in data["games"]] == [waiting["id"], duel.id]
    assert [g["your_seat"] for g in data["games"]] == [0, 0]
    listed = ok(ana.client.get("/api/v1/games/", {"mine": "true"}))["results"]
    assert {k: v for k, v in data["games"][1].items() if k != "your_seat"} == next(
        g for g in listed if g["id"] == duel.id
    )
    # Her words only; the challenge she got; the tournament she entered.
    assert [(m["message"]["text"], m["game"]) for m in data["chat_messages"]] == [
        ("good luck", duel.id)
    ]
    assert [c["id"] for c in data["challenges"]] == [challenge["id"]]
    assert [t["tournament"]["id"] for t in data["tournaments"]] == [cup["id"]]
    assert data["tournaments"][0]["withdrawn_at"] is None
    assert [b["player"]["username"] for b in data["blocks"]] == ["bo"]
    assert [r["player"]["id"] for r in data["reports"]] == [bo.id]  # not bo's report about her
    assert len(data["vacations"]) == 1 and data["chat_silences"] == []
    assert {n["kind"] for n in data["notifications"]} >= {"player_joined", "challenge"}
    # Webhooks and subscriptions without their secrets and keys.
    assert [w["url"] for w in data["webhooks"]] == ["https://example.com/uno"]
    assert [p["endpoint"] for p in data["push_subscriptions"]] == ["https://push.example.com/ana"]
    assert data["push_kinds"] == ok(ana.client.get("/api/v1/push/kinds/"))
    everything = set(strings_in(data))
    assert not {"whsec_ana", "ana-key", "ana-auth", "bo's note", "you too"} & everything
    assert not CARD_CODES & everything, "a card in the file"


def test_a_guest_exports_too(api: APIClient) -> None:
    guest = api.post("/api/v1/players/guest/").json()
    client = client_with(guest["access"])
    game = ok(client.post("/api/v1/games/", {"max_players": 3}, format="json"), 201)

    data = ok(client.get(EXPORT))

    assert data["profile"]["guest"] is True
    assert [g["id"] for g in data["games"]] == [game["id"]]


def test_the_export_is_throttled_per_player(people: list[Player], settings: Any) -> None:
    ana, bo = people
    settings.UNO_THROTTLE_RATES = {**settings.UNO_THROTTLE_RATES, "exports": "2/hour"}
    cache.clear()
    try:
        ok(ana.client.get(EXPORT))
        ok(ana.client.get(EXPORT))
        refused(ana.client.get(EXPORT), 429, "throttled")
        ok(bo.client.get(EXPORT))  # another player's count is their own
    finally:
        cache.clear()


def test_without_a_token_there_is_no_file() -> None:
    refused(APIClient().get(EXPORT), 401, "not_authenticated")
