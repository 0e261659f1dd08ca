"""Benchmark of a replay's cost at the far end of a long game: from a checkpoint and from event 1.

One two-player game is played through the service (mostly draws and passes) until its log holds
``--events`` events; then the replay of its last event (``selectors.game_replay``, what
``GET /replay/?at=N`` runs) is timed in rounds that alternate between the game with its
checkpoints and the same game with them set aside, so machine noise hits both alike.

Run ``.venv/bin/python bench/replay.py`` (``--events N``, ``--rounds N``). Figures are in
``docs/performance.md``.
"""

from __future__ import annotations

import argparse
import logging
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import SERVER, prepare_database, service_env, setup_django


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=2400)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()

    env = service_env(f"{SERVER}/uno_bench_replay", UNO_SEEDS_FROM_PLAYERS="1")
    prepare_database("uno_bench_replay", env)
    setup_django(env)
    logging.disable(logging.INFO)  # one log line an action: not what is measured

    from django.contrib.auth.models import User
    from django.db import transaction

    from games import selectors
    from games.engine.bots import choose
    from games.eventstore import load_state
    from games.models import Checkpoint
    from service import lobby, play

    host, guest = (User.objects.create_user(f"replayer{i}") for i in range(2))
    spec = lobby.NewGame(max_players=2, seed=20_261_201)
    game = lobby.game_create(player=host, spec=spec)
    game = lobby.game_join(player=guest, game_id=game.pk)
    rng = random.Random(1)
    seats = {0: host, 1: guest}
    state = load_state(game)
    while game.version < args.events:
        actor = state.actor
        seen = selectors.game_view(game, seats[actor], state)
        played = play.game_act(
            player=seats[actor], game_id=game.pk, action=choose(rng, seen, prefer_play=0.2)
        )
        game, state = played.game, played.state
        if game.status != "active":
            raise SystemExit("the game ended before its log was long enough: try another seed")

    def timed() -> float:
        start = time.perf_counter()
        selectors.game_replay(game, host, at=game.version)
        return time.perf_counter() - start

    kept = list(Checkpoint.objects.filter(game=game))
    with_checkpoints, without = [], []
    for _ in range(args.rounds):
        with_checkpoints.append(timed())
        with transaction.atomic():
            Checkpoint.objects.filter(game=game).delete()
            without.append(timed())
            transaction.set_rollback(True)
    assert Checkpoint.objects.filter(game=game).count() == len(kept)
    print(f"replay at event {game.version:,} ({len(kept)} checkpoints), median of {args.rounds}:")
    print(f"  from the nearest checkpoint  {statistics.median(with_checkpoints) * 1000:8.1f} ms")
    print(f"  from event 1                 {statistics.median(without) * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
