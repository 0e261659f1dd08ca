"""``manage.py rebuild_projections``: rewrite Game, Seat and Hand from the event log."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.models import Game
from games.projections import rebuild_game


class Command(BaseCommand):
    help = "Rebuild the projections (game state, seats, hands) of every started game from its log."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_ids", nargs="*", help="Only these games (default: all).")

    def handle(self, *args: Any, **options: Any) -> None:
        games = Game.objects.exclude(version=0).order_by("created_at")
        if options["game_ids"]:
            games = games.filter(pk__in=options["game_ids"])
        total = changed = 0
        for game in games.iterator():
            total += 1
            if rebuild_game(game):
                changed += 1
                self.stdout.write(f"rebuilt {game.pk}: the projections differed from the log")
        self.stdout.write(self.style.SUCCESS(f"{total} game(s) rebuilt, {changed} differed."))
