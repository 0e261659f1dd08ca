"""A tournament stream's feed: its log's entries, as ``streams.sse.tournament_stream`` serves them
(each message ``id: <seq>``, ``event: tournament_changed``, ``data: <the entry JSON>``: ``seq``,
``type``, ``at``, ``data``; no entry holds a card, and a duplicate round's results wait for its
reveal: ``tournament_records.entries_shown``)."""

from __future__ import annotations

from games.models import Tournament, TournamentStatus
from service.tournament_records import entries_after, entries_shown
from streams import hub
from streams.frames import ended_frame, frame
from streams.sse import Feed

EVENT = "tournament_changed"


def read(tournament_id: str, after: int) -> tuple[bytes, int] | None:
    """The frames of the entries after seq ``after`` (a page the hub's size at most) and the last
    seq among them; None when there is none."""
    rows = entries_after(tournament_id, after, hub.READ_LIMIT)
    if not rows:
        return None
    shown = entries_shown(tournament_id, rows)
    return b"".join(frame(body["seq"], EVENT, body) for body in shown), rows[-1].seq


def latest(tournament_id: str) -> int:
    version = Tournament.objects.filter(pk=tournament_id).values_list("version", flat=True).first()
    return version or 0


# The last message of a finished tournament's stream, after its last entry: none will follow.
OVER = ended_frame("tournament_finished", "The tournament is over: no entry will follow.")


def over(tournament_id: str, cursor: int) -> bytes | None:
    """``OVER`` once the tournament finished and seq ``cursor`` is its last entry."""
    finished = Tournament.objects.filter(
        pk=tournament_id, status=TournamentStatus.FINISHED, version__lte=cursor
    )
    return OVER if finished.exists() else None


CHANGES = Feed(read=read, latest=latest, last=over)
