"""One ``Table``: a started game and its players, played through HTTP as a client plays it.

Everything here talks to the service the way a client does (DRF's ``APIClient`` with an
``Authorization: Token …`` header); the database is read only to compare with the truth.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rest_framework.test import APIClient

from games import engine
from games.engine.bots import choose
from games.engine.snapshot import state_from_data
from games.models import Event, Game, Hand
from tests.support.decks import deck_for
from tests.support.players import Player

if TYPE_CHECKING:  # the stubs' name for what the test clients answer (a Response with json())
    from rest_framework.response import _MonkeyPatchedResponse as Response

GAMES = "/api/v1/games/"
# A fixed deal, for games whose deal a test does not care about.
SEED = 20261129
Action = dict[str, Any]


def game_url(game_id: str, suffix: str = "") -> str:
    return f"{GAMES}{game_id}/{suffix + '/' if suffix else ''}"


def body_of(response: Response) -> Any:
    return response.json() if response.content else None


def ok(response: Response, status: int = 200) -> Any:
    body = body_of(response)
    assert response.status_code == status, (response.status_code, body)
    return body


def refused(response: Response, status: int, code: str) -> dict[str, Any]:
    """An error body of the contract: ``{"code", "detail"}`` with the given status."""
    body = body_of(response)
    assert response.status_code == status, (response.status_code, body)
    assert body["code"] == code, body
    assert isinstance(body["detail"], str) and body["detail"], body
    return body


def create_game(host: Player, **settings: Any) -> dict[str, Any]:
    body = ok(host.client.post(GAMES, settings, format="json"), 201)
    assert body["status"] == "waiting"
    return body


# --- the truth, read from the database ----------------------------------------------------------


def db_log(game_id: str) -> list[engine.Event]:
    rows = Event.objects.filter(game_id=game_id).order_by("seq")
    return [{"type": r.type, "seat": r.seat, "data": r.data} for r in rows]


def db_state(game_id: str) -> engine.GameState:
    state = Game.objects.get(pk=game_id).state
    assert state is not None
    return state_from_data(state)


def log_size(game_id: str) -> tuple[int, int]:
    """(version, number of events): both stay put when an action is refused."""
    return Game.objects.get(pk=game_id).version, Event.objects.filter(game_id=game_id).count()


# --- a game under test --------------------------------------------------------------------------


@dataclass
class Table:
    """A started game and its players, by seat; ``outsider`` is signed in and has no seat."""

    id: str
    players: list[Player]
    views: dict[int, dict[str, Any]] = field(default_factory=dict)
    outsider: Player | None = None

    def url(self, suffix: str = "") -> str:
        return game_url(self.id, suffix)

    def client(self, seat: int) -> APIClient:
        return self.players[seat].client

    def view(self, seat: int) -> dict[str, Any]:
        body = ok(self.client(seat).get(self.url()))
        self.views[seat] = body
        return body

    def post(self, seat: int, action: Action, **headers: Any) -> Response:
        return self.client(seat).post(self.url("actions"), action, format="json", **headers)

    def act(self, seat: int, action: str, **fields: Any) -> dict[str, Any]:
        body = ok(self.post(seat, {"action": action, **fields}))
        self.views[seat] = body
        return body

    def events(self, seat: int, **query: Any) -> dict[str, Any]:
        return ok(self.client(seat).get(self.url("events"), query))

    def replay(self, seat: int, at: int) -> dict[str, Any]:
        return ok(self.client(seat).get(self.url("replay"), {"at": at}))

    def actor(self) -> int:
        return db_state(self.id).actor

    def hand(self, seat: int) -> list[str]:
        return list(db_state(self.id).hands[seat])

    def hands(self) -> dict[int, list[str]]:
        """The hands as the ``Hand`` projection holds them, by seat."""
        return {h.seat: list(h.cards) for h in Hand.objects.filter(game_id=self.id)}

    def actor_client(self) -> APIClient:
        """The client of the seat that must act now."""
        return self.client(self.actor())

    def waiter_client(self) -> APIClient:
        """The client of a seat that must not act now (the first after the actor)."""
        return self.client((self.actor() + 1) % len(self.players))

    def outsider_client(self) -> APIClient:
        assert self.outsider is not None, "this table has no outsider"
        return self.outsider.client

    def snapshot(self) -> tuple[Any, ...]:
        """Everything a refused request must leave as it was."""
        game = Game.objects.get(pk=self.id)
        hands = list(Hand.objects.filter(game_id=self.id).order_by("seat").values_list("cards"))
        return game.version, Event.objects.filter(game_id=self.id).count(), game.state, hands


@dataclass
class Lobby:
    """A game waiting for players: ``host`` created it, ``guest`` sits in it, ``outsider`` not."""

    id: str
    host: APIClient
    guest: APIClient
    outsider: APIClient

    def url(self, suffix: str = "") -> str:
        return game_url(self.id, suffix)


def seat_players(host: Player, others: Sequence[Player], game: dict[str, Any]) -> Table:
    """Let ``others`` join ``game`` in order; the last join fills it and starts it."""
    for player in others:
        ok(player.client.post(game_url(game["id"], "join")))
    return Table(game["id"], [host, *others])


def start_table(players: Sequence[Player], **settings: Any) -> Table:
    """A game created by ``players[0]`` for exactly ``len(players)``, joined by the others."""
    host, *others = players
    game = create_game(host, max_players=len(players), **settings)
    table = seat_players(host, others, game)
    assert table.view(0)["status"] == "active"
    return table


def deck_table(
    staff: Player,
    others: Sequence[Player],
    hands: Sequence[Sequence[str]],
    starter: str,
    draws: Sequence[str] = (),
    **settings: Any,
) -> Table:
    """A game dealt from a given deck: staff (seat 0) creates it, ``others`` take seats 1…."""
    assert staff.user.is_staff and len(hands) == len(others) + 1
    deck = deck_for(hands, starter, draws)
    game = create_game(staff, max_players=len(hands), deck=deck, **settings)
    table = seat_players(staff, others, game)
    state = db_state(table.id)
    assert [Counter(h) for h in state.hands] == [Counter(h) for h in hands]
    return table


# --- bots ---------------------------------------------------------------------------------------


def out_of_turn(views: dict[int, dict[str, Any]], actor: int) -> Iterator[tuple[int, Action]]:
    """The actions seats other than the actor may take now (catch, uno, jump-in)."""
    for seat, view in views.items():
        if seat != actor and view["you"] is not None:
            for action in view["you"]["legal_actions"]:
                yield seat, action


def play_to_end(table: Table, rng: random.Random, max_moves: int = 3000) -> dict[str, Any]:
    """Bots play the actor's legal actions through HTTP until the game is over."""
    view = table.view(0)
    for _ in range(max_moves):
        if view["status"] != "active":
            return view
        pending = view["round"]["pending"]
        actor = pending["seat"] if pending else view["round"]["current_seat"]
        view = table.act(actor, **choose(rng, table.view(actor), prefer_play=0.95))
    raise AssertionError("the game does not end")
