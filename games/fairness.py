"""Fair decks and a tamper-evident log: the commitment, the hash chain, and the check of an export.

No Django import here (nor anywhere under ``games.engine``): a client copies this file and the
``games/engine/`` package and checks a finished game's export itself (docs/fairness.md):

    python -m games.fairness export.json

What is checked, in this order (every problem found is reported, not only the first):

1. the commitment: ``sha256(f"{seed}:{salt}")`` in hex is the game's ``deck_commitment``, which
   the game view showed from the game's creation on;
2. the chain: each event's ``hash`` is ``sha256(previous_hash + canonical)`` in hex, the first
   ``previous_hash`` 64 zeros, ``canonical`` the event's ``seq``, ``type``, ``seat`` and ``data``
   as JSON with sorted keys, no spaces and non-ASCII characters as themselves, UTF-8 encoded;
3. the replay: the first event names the revealed seed and salt, and playing the log's moves
   again with the rules engine from that seed gives exactly the log's events: every shuffle, every
   card drawn, the winner.

The rules engine makes every random choice from ``random.Random(f"{seed}:{salt}:{n}")``, ``n``
counting the choices made so far (``games.engine.rules.rng_key``), so the seed, chosen by staff or
at random, predicts no deck without the salt, which stays secret until the game ends.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games import engine
from games.engine.options import options_from_data

ZERO_HASH = "0" * 64
"""The ``previous_hash`` of a game's first event."""

SALT_BYTES = 32


def new_salt() -> str:
    """A game's secret salt: 32 random bytes in hex."""
    return secrets.token_hex(SALT_BYTES)


def commitment(seed: int, salt: str) -> str:
    """The deck commitment the game view shows before the first card is dealt."""
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


def canonical(seq: int, type_: str, seat: int | None, data: Mapping[str, Any]) -> bytes:
    """The bytes an event's hash covers: the stored event, fully revealed, as canonical JSON.

    ``ensure_ascii=False``: a character outside ASCII is written as itself in UTF-8, not as a
    ``\\u`` escape (every event of today's rules is plain ASCII, so both would agree).
    """
    text = json.dumps(
        {"seq": seq, "type": type_, "seat": seat, "data": data},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return text.encode("utf-8")


def event_hash(
    previous: str, seq: int, type_: str, seat: int | None, data: Mapping[str, Any]
) -> str:
    """``sha256(previous_hash + canonical)`` in hex: the previous hash as its 64 hex characters."""
    return hashlib.sha256(previous.encode("ascii") + canonical(seq, type_, seat, data)).hexdigest()


def chain(previous: str, first_seq: int, events: Iterable[engine.Event]) -> list[str]:
    """The hashes of ``events``, numbered from ``first_seq``, after the hash ``previous``."""
    hashes = []
    for seq, item in enumerate(events, first_seq):
        previous = event_hash(previous, seq, item["type"], item["seat"], item["data"])
        hashes.append(previous)
    return hashes


# --- checking an export ------------------------------------------------------------------------


@dataclass
class Report:
    """What ``verify_export`` found: ``ok`` when ``problems`` is empty."""

    game: str
    events: int = 0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def text(self) -> str:
        head = f"game {self.game}: {self.events} events"
        if self.ok:
            lines = [f"{head}: verified (commitment, hash chain, replay from the seed)"]
        else:
            lines = [f"{head}: FAILED", *(f"  - {problem}" for problem in self.problems)]
        return "\n".join(lines + [f"  note: {note}" for note in self.notes])


def verify_export(document: Mapping[str, Any], seen: str | None = None) -> Report:
    """Check a finished game's export (``GET /api/v1/games/{id}/export/``): see the module.

    ``seen`` is the ``deck_commitment`` the game view showed the checker before the deal: an
    export whose seed, salt and commitment were all replaced does not match it.
    """
    report = Report(game=str(document.get("id")))
    try:
        events = list(document["events"])
        seed, salt = document["seed"], document["salt"]
        report.events = len(events)
        committed = document.get("deck_commitment")
        if seen is not None and seen.lower() != committed:
            report.problems.append(
                f"the export commits to {committed}, not to {seen.lower()}, the commitment shown "
                "before the deal"
            )
        _check_commitment(report, seed, salt, committed)
        _check_chain(report, events)
        # With bot_takeover a seat's last timeout does not forfeit it: a bot plays on for it.
        takeover = bool((document.get("settings") or {}).get("bot_takeover"))
        _check_replay(report, events, seed, salt, document.get("winner_seat"), takeover)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as broken:
        report.problems.append(f"the document is not a game export: {broken!r}")
    return report


def _check_commitment(report: Report, seed: int, salt: str | None, committed: Any) -> None:
    if not salt or committed is None:
        report.problems.append(
            "the game has no deck commitment: it began before fair decks, so nothing shows "
            "that its seed was fixed before the deal"
        )
        return
    if commitment(seed, salt) != committed:
        report.problems.append(
            f"the deck commitment {committed} is not sha256('{seed}:{salt}'): the seed or the "
            "salt is not the one committed to"
        )


def _check_chain(report: Report, events: Sequence[Mapping[str, Any]]) -> None:
    previous = ZERO_HASH
    for index, item in enumerate(events):
        seq = index + 1
        if item["seq"] != seq:
            report.problems.append(f"event {index + 1} has seq {item['seq']}: the log has a gap")
            return
        expected = event_hash(previous, seq, item["type"], item["seat"], item["data"])
        if item.get("hash") != expected:
            report.problems.append(
                f"event {seq} ({item['type']}): its hash is {item.get('hash')}, its content and "
                f"the previous hash give {expected}: the log was changed at or before event {seq}"
            )
            return
        previous = expected


Step = Callable[[engine.GameState], tuple[list[engine.Event], engine.GameState]]


def _check_replay(
    report: Report,
    events: Sequence[Mapping[str, Any]],
    seed: int,
    salt: str | None,
    winner_seat: Any,
    takeover: bool = False,
) -> None:
    log: list[engine.Event] = [
        {"type": e["type"], "seat": e["seat"], "data": dict(e["data"])} for e in events
    ]
    if not log or log[0]["type"] != "game_started":
        report.problems.append("the log does not begin with game_started")
        return
    started = log[0]["data"]
    if started.get("seed") != seed or started.get("salt", "") != (salt or ""):
        report.problems.append(
            f"the game was started with seed {started.get('seed')} and salt "
            f"{started.get('salt', '')!r}, not the revealed seed {seed} and salt {salt!r}"
        )
        return
    deck = _given_deck(log)
    if deck is not None:
        report.notes.append(
            "round 1 was dealt from a deck given by staff at creation, not shuffled from the seed"
        )
    options = options_from_data(started["options"])
    try:
        produced = engine.start_game(started["players"], options, seed, deck=deck, salt=salt or "")
    except engine.IllegalMove as refused:
        report.problems.append(f"the game cannot start as logged: {refused.detail}")
        return
    produced = _plain(produced)
    if produced != log[: len(produced)]:
        at = _first_difference(produced, log)
        report.problems.append(
            f"event {at + 1}: the deal is not the one the seed gives (the log shows "
            f"{_short(log, at)}, the seed gives {_short(produced, at)})"
        )
        return
    state = engine.replay(produced)
    position = len(produced)
    while position < len(log):
        found = _next_step(state, log, position, takeover)
        if found is None:
            at, expected = _closest_step(state, log, position, takeover)
            report.problems.append(
                f"event {at + 1} ({log[at]['type']}): no move of the rules from the game as it "
                f"stood gives it (the closest move gives {expected} there): a shuffle or a card "
                "differs from what the seed gives, or the event was changed"
            )
            return
        step_events, state = found
        position += len(step_events)
    if state.status != "finished":
        report.problems.append("the log ends before the game does")
    elif state.winner != winner_seat:
        report.problems.append(f"the log makes seat {state.winner} the winner, not {winner_seat}")


def _given_deck(log: Sequence[engine.Event]) -> list[str] | None:
    first_round = next((e for e in log if e["type"] == "round_started"), None)
    if first_round is not None and first_round["data"].get("given"):
        return list(first_round["data"]["deck"])
    return None


def _next_step(
    state: engine.GameState, log: Sequence[engine.Event], position: int, takeover: bool
) -> tuple[list[engine.Event], engine.GameState] | None:
    """The engine call (a seat's action, a timeout, a resignation) that gives the log's events
    from ``position`` on, with the state after them."""
    for step in _candidates(state, log, position, takeover):
        try:
            produced, after = step(state)
        except engine.IllegalMove:
            continue
        produced = _plain(produced)
        if produced and produced == list(log[position : position + len(produced)]):
            return produced, after
    return None


def _closest_step(
    state: engine.GameState, log: Sequence[engine.Event], position: int, takeover: bool
) -> tuple[int, str]:
    """Where the engine call that agrees with the longest run of the log from ``position`` parts
    from it, and what it gives there: the first event the rules and the seed do not explain."""
    best, expected = 0, "nothing"
    for step in _candidates(state, log, position, takeover):
        try:
            produced = _plain(step(state)[0])
        except engine.IllegalMove:
            continue
        agreed = _first_difference(produced, log[position:])
        if agreed >= best:
            best, expected = agreed, _short(produced, agreed)
    return min(position + best, len(log) - 1), expected


def _timing_out_kept(state: engine.GameState) -> tuple[list[engine.Event], engine.GameState]:
    return engine.time_out(state, forfeit=False)


def _acting(seat: int, action: dict[str, Any]) -> Step:
    def step(state: engine.GameState) -> tuple[list[engine.Event], engine.GameState]:
        return engine.act(state, seat, action)

    return step


def _resigning(seat: int) -> Step:
    def step(state: engine.GameState) -> tuple[list[engine.Event], engine.GameState]:
        return engine.resign(state, seat)

    return step


def _taken_over(seat: int, reason: Any) -> Step:
    def step(state: engine.GameState) -> tuple[list[engine.Event], engine.GameState]:
        if reason not in ("timeout", "resign"):
            raise engine.IllegalMove("invalid", "No such reason for a takeover.")
        return engine.take_over(state, seat, reason)

    return step


def _candidates(
    state: engine.GameState, log: Sequence[engine.Event], position: int, takeover: bool
) -> list[Step]:
    """Every engine call that might have made the next events, the likeliest first: the one the
    next event names, then any legal action of any seat (a jump-in, a catch, an UNO). With
    ``takeover`` (the game's ``bot_takeover``) a timeout may also keep its seat, the last one
    included (``engine.time_out(forfeit=False)``: a bot plays on for the seat), and a seat may
    be taken over (``seat_taken_over``; the logs of games played before it was logged lack it)."""
    upcoming = log[position]
    seat = upcoming["seat"]
    steps: list[Step] = []
    if upcoming["type"] == "timed_out":
        steps.append(engine.time_out)
        if takeover:
            steps.append(_timing_out_kept)
    if upcoming["type"] == "forfeited" and seat is not None:
        steps.append(_resigning(seat))
    if upcoming["type"] == "seat_taken_over" and takeover and seat is not None:
        steps.append(_taken_over(seat, upcoming["data"].get("reason")))
    played = _played_action(log, position)
    if played is not None and seat is not None:
        steps.append(_acting(seat, played))
    seats = list(range(state.players))
    if isinstance(seat, int) and 0 <= seat < state.players:
        seats.remove(seat)
        seats.insert(0, seat)
    for who in seats:
        for action in engine.legal_actions(state, who):
            steps.append(_acting(who, action))
    steps.append(engine.time_out)
    return steps


def _played_action(log: Sequence[engine.Event], position: int) -> dict[str, Any] | None:
    """The play a ``card_played`` event logs, as an action: the only form for a set of cards
    (``multi_play``) or a gift (``two_gives``), which the legal actions do not list."""
    upcoming = log[position]
    if upcoming["type"] != "card_played" or upcoming["data"].get("auto"):
        return None
    data = upcoming["data"]
    cards = list(data["cards"])
    action: dict[str, Any] = {"action": "play", "uno": bool(data.get("uno"))}
    if len(cards) == 1:
        action["card"] = cards[0]
    else:
        action["cards"] = cards
    if cards[-1] in ("wild", "wild-draw4"):
        action["color"] = data["color"]
    if "target" in data:
        action["target"] = data["target"]
    gift = next(
        (
            e
            for e in log[position + 1 : position + 4]
            if e["type"] == "cards_given" and e["seat"] == upcoming["seat"]
        ),
        None,
    )
    if gift is not None:
        action["give"] = list(gift["data"]["cards"])
        action["target"] = gift["data"]["target"]
        action["uno"] = bool(gift["data"].get("uno")) or action["uno"]
    return action


def _plain(events: list[engine.Event]) -> list[engine.Event]:
    """``events`` as the log stores them: JSON (tuples become lists)."""
    plain: list[engine.Event] = json.loads(json.dumps(events))
    return plain


def _first_difference(a: Sequence[engine.Event], b: Sequence[engine.Event]) -> int:
    return next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )


def _short(log: Sequence[engine.Event], at: int) -> str:
    if at >= len(log):
        return "no event"
    item = log[at]
    return json.dumps({"type": item["type"], "seat": item["seat"]})


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m games.fairness EXPORT.json [COMMITMENT]``: exit status 0 when the export
    verifies (and commits to ``COMMITMENT``, the deck commitment seen before the deal)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) not in (1, 2):
        print("usage: python -m games.fairness EXPORT.json [COMMITMENT]", file=sys.stderr)
        return 2
    with open(args[0], encoding="utf-8") as source:
        report = verify_export(json.load(source), seen=args[1] if len(args) == 2 else None)
    print(report.text(), file=sys.stdout if report.ok else sys.stderr)
    return 0 if report.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
