"""With no configuration the service runs on a local SQLite file: a game plays there too.

``make run`` without ``DATABASE_URL`` serves from SQLite. The write path's plain SQL
(``games.eventstore``) has a branch for it (no ``FOR UPDATE``, one statement per call), so a whole
stretch of a game is played in a process of its own on a fresh SQLite file, through HTTP.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.support.deployment import ROOT

PLAY = """
import json, random
import django
django.setup()
from django.conf import settings
settings.UNO_SEEDS_FROM_PLAYERS = True  # as in the rest of the suite (tests/conftest.py)
from django.core.management import call_command
call_command("migrate", verbosity=0)
from django.db import connection
from rest_framework.test import APIClient
from games.engine import replay
from games.engine.snapshot import state_from_data
from games.models import Event, Game, Hand

assert connection.vendor == "sqlite", connection.vendor
clients = []
for name in ("ada", "bob"):
    client = APIClient()
    login = {"username": name, "password": "a long passphrase 1"}
    answer = client.post("/api/v1/players/", login, format="json")
    assert answer.status_code == 201, answer.content
    answer = client.post("/api/v1/auth/token/", login, format="json")
    assert answer.status_code == 200, answer.content
    client.credentials(HTTP_AUTHORIZATION="Token " + answer.json()["token"])
    clients.append(client)
game = clients[0].post("/api/v1/games/", {"max_players": 2, "seed": 7}, format="json").json()
url = "/api/v1/games/" + game["id"] + "/"
assert clients[1].post(url + "join/").json()["status"] == "active"
rng = random.Random(1)
acted = 0
while acted < 150:
    views = [client.get(url).json() for client in clients]
    if views[0]["status"] != "active":
        break
    seat = next(i for i, view in enumerate(views) if view["you"]["legal_actions"])
    action = rng.choice(views[seat]["you"]["legal_actions"])
    body = {**action, "expected_version": views[seat]["version"]}
    answer = clients[seat].post(url + "actions/", body, format="json")
    assert answer.status_code == 200, answer.content
    acted += 1
stale = clients[0].post(url + "actions/", {"action": "draw", "expected_version": 1}, format="json")
row = Game.objects.get(pk=game["id"])
log = [{"type": e.type, "seat": e.seat, "data": e.data}
       for e in Event.objects.filter(game_id=game["id"]).order_by("seq")]
state = replay(log)
print(json.dumps({
    "acted": acted,
    "version": row.version,
    "events": len(log),
    "seqs_in_order": [e.seq for e in Event.objects.filter(game_id=game["id"]).order_by("seq")]
        == list(range(1, len(log) + 1)),
    "snapshot_is_replay": state_from_data(row.state) == state,
    "hands_match": [h.cards for h in Hand.objects.filter(game_id=game["id"]).order_by("seat")]
        == [list(hand) for hand in state.hands],
    "stale": [stale.status_code, stale.json()["code"]],
    "my_turn": [c.get("/api/v1/games/", {"my_turn": "true"}).json()["count"] for c in clients],
    "waits_for": [int(row.status == "active" and row.current_seat == s) for s in range(2)],
}))
"""


def test_a_game_plays_on_sqlite(tmp_path: Path) -> None:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_"))},
        "DJANGO_SETTINGS_MODULE": "unoservice.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "CELERY_BROKER_URL": "",
        "LOG_LEVEL": "WARNING",
    }
    result = subprocess.run(
        [sys.executable, "-c", PLAY], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr[-3000:]
    outcome = json.loads(result.stdout.strip().splitlines()[-1])
    assert outcome["acted"] >= 50
    assert outcome["version"] == outcome["events"] > outcome["acted"]
    assert outcome["seqs_in_order"] and outcome["snapshot_is_replay"] and outcome["hands_match"]
    assert outcome["stale"] == [409, "version_conflict"]
    # The list of games waiting for a player (its SQL has a branch for SQLite).
    assert outcome["my_turn"] == outcome["waits_for"] and sum(outcome["my_turn"]) == 1
