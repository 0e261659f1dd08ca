"""``manage.py verify_game ID`` (or ``verify_game EXPORT.json``): check a finished game's deck
commitment, hash chain and replay from the seed, and that the export's settings, seats and winner
are what that replay gives (``games.fairness``, docs/fairness.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import selectors
from games.eventstore import parse_game_id
from games.fairness import NotAnExport, commitment_problem, load_export, verify_export
from games.models import Game
from unoservice.errors import DomainError


class Command(BaseCommand):
    help = (
        "Verify a finished game: its deck commitment, the hash chain of its log, that playing "
        "its moves again from the revealed seed gives the same events, and that its settings, "
        "seats (scores, statuses, teams) and winner are what that replay gives. Takes a game id "
        "(read from this database) or the path of an export (GET /api/v1/games/{id}/export/). "
        "Exits non-zero when the game does not verify."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game", help="A game id, or the path of an export JSON file.")
        parser.add_argument(
            "--commitment",
            help="The deck_commitment the game view showed before the deal: the export must "
            "commit to the same.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        seen: str | None = options["commitment"]
        wrong = None if seen is None else commitment_problem(seen)
        if wrong is not None:
            raise CommandError(wrong)
        name: str = options["game"]
        report = verify_export(_export(name), seen=seen)
        if report.malformed is not None:  # one line, as for a file that is not JSON
            raise CommandError(f"{name}: {report.text()}")
        if not report.ok:
            raise CommandError(report.text())
        self.stdout.write(self.style.SUCCESS(report.text()))


def _export(name: str) -> dict[str, Any]:
    path = Path(name)
    if path.suffix == ".json" or path.is_file():
        try:
            return load_export(name)
        except NotAnExport as broken:
            raise CommandError(f"cannot read the export: {broken}") from None
    try:  # the operator's command: every game, private ones too
        game = Game.objects.filter(pk=parse_game_id(name)).first()
        if game is None:
            raise DomainError("not_found", "No such game.")
        return selectors.game_export(game)
    except DomainError as refused:
        raise CommandError(f"game {name}: {refused.detail}") from None
