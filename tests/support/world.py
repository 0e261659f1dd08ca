"""The world one generated request of the contract fuzzer is aimed at."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.authtoken.models import Token

from games import engine
from games.engine.snapshot import state_from_data
from games.models import Game, Tournament
from service.lobby import NewGame, game_create, game_join
from service.tournaments import NewTournament, tournament_create, tournament_join

SEED = 20260601
_names = itertools.count(1)


@dataclass
class World:
    """What one generated request is aimed at: real players, real tokens, real games.

    ``active`` is a started 2-player game; ``actor`` must act in it and ``other`` sits in it too.
    ``lobby`` waits for players: ``host`` created it and ``guest`` sits in it; ``newcomer`` sits
    nowhere and may join it.
    """

    actor: User
    other: User
    host: User
    guest: User
    newcomer: User
    tokens: dict[int, str]
    active: Game
    lobby: Game
    tournament: Tournament  # upcoming: ``guest`` entered it, ``host`` made it

    def token(self, user: User) -> str:
        return self.tokens[user.pk]


def _user(tag: str) -> User:
    return User.objects.create_user(f"fz{tag}{next(_names)}", password=None)


def make_world() -> World:
    """A fresh world (a few milliseconds): each example meets the same starting position."""
    a, b, host, guest, newcomer = (_user(t) for t in ("a", "b", "h", "g", "n"))
    tokens = {u.pk: Token.objects.create(user=u).key for u in (a, b, host, guest, newcomer)}
    active = game_create(player=a, spec=NewGame(max_players=2, seed=SEED))
    active = game_join(player=b, game_id=active.pk)
    active.refresh_from_db()
    state = state_from_data(active.state)
    actor, other = (a, b) if engine.legal_actions(state, 0) else (b, a)
    lobby = game_create(player=host, spec=NewGame(max_players=4))
    lobby = game_join(player=guest, game_id=lobby.pk)
    tournament = tournament_create(
        host=host,
        new=NewTournament(
            name="Fuzzed cup",
            format="swiss",
            table_size=4,
            settings={},
            starts_at=timezone.now() + timedelta(hours=1),
            rounds=2,
        ),
    )
    tournament_join(player=guest, tournament_id=str(tournament.pk))
    return World(actor, other, host, guest, newcomer, tokens, active, lobby, tournament)
