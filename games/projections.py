"""Rebuilding the projections (Game summary and state, Seat, Hand) from the event log."""

from __future__ import annotations

from django.db import transaction

from games import engine
from games.models import Event, Game, Hand, Seat
from games.services import lock_game, project_summary


def _summary(game: Game) -> tuple[object, ...]:
    return (game.version, game.state, game.status, game.winner_seat, game.current_seat)


def rebuild_game(game: Game) -> bool:
    """Rewrite ``game``'s projections from its log; True if anything differed."""
    with transaction.atomic():
        game = lock_game(game.pk)
        rows = list(Event.objects.filter(game=game).order_by("seq"))
        if not rows:
            return False
        if [r.seq for r in rows] != list(range(1, len(rows) + 1)):
            raise ValueError(f"the log of game {game.pk} has gaps")
        state = engine.replay({"type": r.type, "seat": r.seat, "data": r.data} for r in rows)
        before = _summary(game)
        game.version = rows[-1].seq
        project_summary(game, state)
        changed = before != _summary(game)
        game.save()
        for seat in Seat.objects.filter(game=game):
            status, score = state.statuses[seat.number], state.scores[seat.number]
            if (seat.status, seat.score) != (status, score):
                changed = True
                seat.status, seat.score = status, score
                seat.save(update_fields=["status", "score"])
        for number, cards in enumerate(state.hands):
            hand, created = Hand.objects.get_or_create(game=game, seat=number)
            if created or hand.cards != list(cards):
                changed = True
                hand.cards = list(cards)
                hand.save(update_fields=["cards"])
        return changed
