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
   card drawn, every round's points, the game's end;
4. the claims beside the log, which no hash covers: the export's ``settings`` (every house rule,
   ``target_score``, ``max_timeouts``, ``teams``, the clock, ``max_players``) are the options the
   game was started with (its ``game_started`` event, which the replay plays by), its ``seats``
   are the seats dealt to, each with the score, status and team the replay ends with, and its
   ``winner_seat`` is the replay's winner.

A document that is no export at all (not JSON, not an object, a key missing or of the wrong type)
is said so in one line (``NotAnExport``, ``Report.malformed``), never with a traceback.

The rules engine makes every random choice from ``random.Random(f"{seed}:{salt}:{n}")``, ``n``
counting the choices made so far (``games.engine.rules.rng_key``), so the seed, chosen by staff or
at random, predicts no deck without the salt, which stays secret until the game ends.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, get_args, get_type_hints

from games import engine
from games.engine.cards import CARD_CODES, COLORS
from games.engine.limits import PLAYERS
from games.engine.options import HOUSE_RULES, Options, clock_setting, options_from_data

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


# What a verified report says was checked (the module's steps 1 to 4).
CHECKED = "commitment, hash chain, replay from the seed, settings, seats and winner"


class NotAnExport(ValueError):
    """The input is no game export at all (not JSON, not an object, a key missing or of the wrong
    type): said in one line, before any check, for a reader of untrusted files must not see a
    traceback."""


@dataclass
class Report:
    """What ``verify_export`` found: ``ok`` when ``problems`` is empty. ``malformed`` says why
    the document is no game export at all (then nothing else was checked)."""

    game: str
    events: int = 0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    malformed: str | None = None

    @property
    def ok(self) -> bool:
        return not self.problems

    def text(self) -> str:
        if self.malformed is not None:
            return f"not a game export: {self.malformed}"
        head = f"game {self.game}: {self.events} events"
        if self.ok:
            lines = [f"{head}: verified ({CHECKED})"]
        else:
            lines = [f"{head}: FAILED", *(f"  - {problem}" for problem in self.problems)]
        return "\n".join(lines + [f"  note: {note}" for note in self.notes])


def load_export(path: str) -> dict[str, Any]:
    """The JSON object in the file ``path``; ``NotAnExport`` (one line) when there is none."""
    try:
        with open(path, encoding="utf-8") as source:
            document = json.load(source)
    except OSError as unreadable:
        raise NotAnExport(f"cannot read {path}: {unreadable.strerror or unreadable}") from None
    except UnicodeDecodeError:
        raise NotAnExport(f"{path} is not UTF-8 text") from None
    except RecursionError:  # "[[[[…": nested deeper than the parser goes
        raise NotAnExport(f"{path} is not JSON: nested too deep") from None
    except ValueError as broken:  # JSONDecodeError, or a number of more than 4300 digits
        raise NotAnExport(f"{path} is not JSON: {broken}") from None
    if not isinstance(document, dict):
        raise NotAnExport(f"{path} holds {_kind(document)}, not a game export (a JSON object)")
    return document


def verify_export(document: Mapping[str, Any], seen: str | None = None) -> Report:
    """Check a finished game's export (``GET /api/v1/games/{id}/export/``): see the module.

    ``seen`` is the ``deck_commitment`` the game view showed the checker before the deal: an
    export whose seed, salt and commitment were all replaced does not match it.
    """
    malformed = shape_problem(document)
    if malformed is not None:
        return Report(game="?", problems=[f"not a game export: {malformed}"], malformed=malformed)
    events: list[Mapping[str, Any]] = document["events"]
    seed, salt = document["seed"], document["salt"]
    committed = document["deck_commitment"]
    report = Report(game=document["id"], events=len(events))
    if seen is not None and seen.lower() != committed:
        report.problems.append(
            f"the export commits to {committed}, not to {seen.lower()}, the commitment shown "
            "before the deal"
        )
    _check_commitment(report, seed, salt, committed)
    _check_chain(report, events)
    try:
        _check_replay(report, document)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as broken:
        # The logged data is read where the replay looks for the next move: data the rules
        # engine never writes (a forged, rechained log) may fail there. That is no fair game.
        report.problems.append(
            f"the log cannot be replayed: an event's data is not what the rules engine writes "
            f"({type(broken).__name__}: {broken})"
        )
    return report


# --- the shape of an export: checked first, so that every later read finds what it expects ------


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)  # JSON true is no number


def _is_str(value: object) -> bool:
    return isinstance(value, str)


def _is_object(value: object) -> bool:
    return isinstance(value, dict)


def _is_list(value: object) -> bool:
    return isinstance(value, list)


def _or_null(check: Callable[[object], bool]) -> Callable[[object], bool]:
    return lambda value: value is None or check(value)


Shape = tuple[tuple[str, Callable[[object], bool], str], ...]
"""(key, check, what the check wants): the keys an object must have."""

_EXPORT: Shape = (
    ("id", _is_str, "a string"),
    ("settings", _is_object, "an object"),
    ("seats", _is_list, "a list"),
    ("events", _is_list, "a list"),
    ("seed", _is_int, "an integer"),
    ("salt", _or_null(_is_str), "a string or null"),
    ("deck_commitment", _or_null(_is_str), "a string or null"),
    ("winner_seat", _or_null(_is_int), "an integer or null"),
)
_EVENT: Shape = (
    ("seq", _is_int, "an integer"),
    ("type", _is_str, "a string"),
    ("seat", _or_null(_is_int), "an integer or null"),
    ("data", _is_object, "an object"),
    ("hash", _is_str, "a string"),
)
_SEAT: Shape = (
    ("seat", _is_int, "an integer"),
    ("score", _is_int, "an integer"),
    ("status", _is_str, "a string"),
)
_SETTINGS: Shape = (
    ("rules", _is_object, "an object"),
    ("target_score", _is_int, "an integer"),
    ("max_timeouts", _is_int, "an integer"),
)
# Settings an export shows only when set (``selectors.settings_of``): checked when present.
_OPTIONAL_SETTINGS: Shape = (
    ("max_players", _is_int, "an integer"),
    ("teams", _is_int, "an integer"),
    ("clock", _is_object, "an object"),
    ("bot_takeover", lambda value: isinstance(value, bool), "true or false"),
)


def shape_problem(document: object) -> str | None:
    """Why ``document`` is not a game export (a key missing or of the wrong type), or None."""
    if not isinstance(document, Mapping):
        return f"the document is {_kind(document)}, not a JSON object"
    problem = _missing_or_wrong(document, _EXPORT, "")
    if problem is not None:  # the reads below need the top level's types
        return problem
    settings = document["settings"]
    problem = _missing_or_wrong(settings, _SETTINGS, "settings.")
    problem = problem or _wrong(settings, _OPTIONAL_SETTINGS, "settings.")
    for name, shape in (("seats", _SEAT), ("events", _EVENT)):
        for index, item in enumerate(document[name]):
            if problem is not None:
                return problem
            where = f"{name}[{index}]"
            if not isinstance(item, Mapping):
                return f"'{where}' must be an object, not {_kind(item)}"
            problem = _missing_or_wrong(item, shape, f"{where}.")
    return problem


def _missing_or_wrong(item: Mapping[str, Any], shape: Shape, prefix: str) -> str | None:
    missing = [key for key, _, _ in shape if key not in item]
    if missing:
        return f"'{prefix}{missing[0]}' is missing"
    return _wrong(item, shape, prefix)


def _wrong(item: Mapping[str, Any], shape: Shape, prefix: str) -> str | None:
    for key, check, wanted in shape:
        if key in item and not check(item[key]):
            return f"'{prefix}{key}' must be {wanted}, not {_kind(item[key])}"
    return None


def _kind(value: object) -> str:
    """The JSON kind of ``value``, for a message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object"


# --- the checks ----------------------------------------------------------------------------------


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


def _check_replay(report: Report, document: Mapping[str, Any]) -> None:
    """Play the log's moves again from its first event, then hold what the export claims beside
    the log (its settings, its seats, its winner) against what that replay gives."""
    seed, salt = document["seed"], document["salt"]
    log: list[engine.Event] = [
        {"type": e["type"], "seat": e["seat"], "data": dict(e["data"])} for e in document["events"]
    ]
    if not log or log[0]["type"] != "game_started":
        report.problems.append("the log does not begin with game_started")
        return
    started = log[0]["data"]
    broken = _game_started_problem(started)
    if broken is not None:
        report.problems.append(f"event 1 (game_started): {broken}")
        return
    if started["seed"] != seed or started.get("salt", "") != (salt or ""):
        report.problems.append(
            f"the game was started with seed {started['seed']} and salt "
            f"{started.get('salt', '')!r}, not the revealed seed {seed} and salt {salt!r}"
        )
        return
    options = options_from_data(started["options"])
    players: int = started["players"]
    # Outside the hashed events, so the chain does not bind them: the game_started event does.
    settings, seats = document["settings"], document["seats"]
    report.problems.extend(_settings_differences(settings, options, players))
    if len(seats) != players:
        report.problems.append(
            f"the export lists {len(seats)} seats, but the game was dealt to {players} "
            "(event 1, game_started)"
        )
    # With bot_takeover a seat's last timeout does not forfeit it: a bot plays on for it.
    takeover = bool(settings.get("bot_takeover"))
    state = _replayed(report, log, options, players, seed, salt or "", takeover)
    if state is None:
        return
    if state.status != "finished":
        report.problems.append("the log ends before the game does")
        return
    report.problems.extend(_outcome_differences(document["winner_seat"], seats, state))


def _replayed(
    report: Report,
    log: Sequence[engine.Event],
    options: engine.Options,
    players: int,
    seed: int,
    salt: str,
    takeover: bool,
) -> engine.GameState | None:
    """The state after the whole log, played again move by move; None when a move of the rules
    does not give the logged events (the problem is in ``report``)."""
    deck = _given_deck(log)
    if deck is not None:
        report.notes.append(
            "round 1 was dealt from a deck given by staff at creation, not shuffled from the seed"
        )
    try:
        produced = engine.start_game(players, options, seed, deck=deck, salt=salt)
    except engine.IllegalMove as refused:
        report.problems.append(f"the game cannot start as logged: {refused.detail}")
        return None
    produced = _plain(produced)
    if produced != log[: len(produced)]:
        at = _first_difference(produced, log)
        report.problems.append(
            f"event {at + 1}: the deal is not the one the seed gives (the log shows "
            f"{_short(log, at)}, the seed gives {_short(produced, at)})"
        )
        return None
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
            return None
        step_events, state = found
        position += len(step_events)
    return state


def _option_check(hint: Any) -> tuple[Callable[[object], bool], str]:
    if hint is bool:
        return (lambda value: isinstance(value, bool)), "true or false"
    if hint is int:
        return _is_int, "an integer"
    choices = get_args(hint)  # a Literal of strings (``scoring``)
    return (lambda value: value in choices), " or ".join(json.dumps(c) for c in choices)


# What each option of a game_started event must be: Options itself checks no type, and an option
# of the wrong type would fail deep in the engine instead of here, with its name.
_OPTION_CHECKS = {
    option.name: _option_check(get_type_hints(Options)[option.name])
    for option in fields(Options)
    if option.init
}
_DEFAULT_OPTIONS = Options()


def _game_started_problem(data: Mapping[str, Any]) -> str | None:
    """Why the first event's data is not what ``engine.start_game`` writes, or None."""
    if not PLAYERS.holds(data.get("players")):
        return f"'players' must be an integer from {PLAYERS.low} to {PLAYERS.high}"
    if not _is_int(data.get("seed")):
        return "'seed' must be an integer"
    if not _is_str(data.get("salt", "")):
        return "'salt' must be a string"
    options = data.get("options")
    if not isinstance(options, Mapping):
        return "'options' must be an object"
    for name, value in options.items():
        if name not in _OPTION_CHECKS:
            return f"'options.{name}' is no option of the rules engine"
        check, wanted = _OPTION_CHECKS[name]
        if not check(value):
            return f"'options.{name}' must be {wanted}, not {_kind(value)}"
    return None


def _settings_differences(
    settings: Mapping[str, Any], options: engine.Options, players: int
) -> Iterator[str]:
    """Where the export's settings say the game was played otherwise than its game_started event
    (which the chain binds, and from which the replay plays) says."""
    rules: Mapping[str, Any] = settings["rules"]
    for name in sorted(set(rules) - set(HOUSE_RULES)):
        yield f"settings.rules.{name} is no house rule of the rules engine: no replay follows it"
    for name in HOUSE_RULES:
        # A rule added after the export was written is missing from it: it was off (its default).
        claimed = rules.get(name, getattr(_DEFAULT_OPTIONS, name))
        yield from _setting_differs(f"rules.{name}", claimed, getattr(options, name))
    yield from _setting_differs("target_score", settings["target_score"], options.target_score)
    yield from _setting_differs("max_timeouts", settings["max_timeouts"], options.max_timeouts)
    yield from _setting_differs("teams", settings.get("teams", 0), options.teams)
    yield from _clock_differs(settings.get("clock"), options)
    most = settings.get("max_players")
    if most is not None and most < players:
        yield (
            f"settings.max_players is {most}, but the game was dealt to {players} seats "
            "(event 1, game_started)"
        )


def _setting_differs(name: str, claimed: Any, played: Any) -> Iterator[str]:
    # type() too: JSON's 1 is not true, though Python's 1 == True.
    if claimed != played or type(claimed) is not type(played):
        yield (
            f"settings.{name} is {_json(claimed)} in the export, but the game was played with "
            f"{_json(played)} (event 1, game_started)"
        )


def _clock_differs(clock: Mapping[str, Any] | None, options: engine.Options) -> Iterator[str]:
    played = clock_setting(options)
    claimed = {"type": "move"} if clock is None else clock
    if any(claimed.get(key) != value for key, value in played.items()):
        yield (
            f"settings.clock is {_json(claimed)} in the export, but the game was played with "
            f"{_json(played)} (event 1, game_started)"
        )


def _outcome_differences(
    winner_seat: int | None, seats: Sequence[Mapping[str, Any]], state: engine.GameState
) -> Iterator[str]:
    """Where the export's winner and seats are not the end the replay of its log reaches."""
    if state.winner != winner_seat:
        yield f"the log makes seat {state.winner} the winner, not {winner_seat}"
    teams = state.options.teams
    for number, seat in enumerate(seats[: state.players]):
        if seat["seat"] != number:
            yield f"seats[{number}] is seat {seat['seat']}: the export lists its seats in order"
            continue
        shown = (
            ("score", seat["score"], state.scores[number]),
            ("status", seat["status"], state.statuses[number]),
            ("team", seat.get("team"), number % teams if teams else None),
        )
        for what, claimed, replayed in shown:
            if claimed != replayed or type(claimed) is not type(replayed):
                yield (
                    f"seat {number}: the export shows {what} {_json(claimed)}, the replay of the "
                    f"log gives {_json(replayed)}"
                )


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _given_deck(log: Sequence[engine.Event]) -> list[str] | None:
    first_round = next((e for e in log if e["type"] == "round_started"), None)
    if first_round is not None and first_round["data"].get("given"):
        deck = first_round["data"].get("deck")
        return list(deck) if isinstance(deck, list) else []  # [] is no deck: the start says so
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


def _acting(seat: int, action: dict[str, Any], left: int | None = None) -> Step:
    def step(state: engine.GameState) -> tuple[list[engine.Event], engine.GameState]:
        return engine.act(state, seat, action, left=left)

    return step


def _resigning(seat: int, left: int | None = None) -> Step:
    def step(state: engine.GameState) -> tuple[list[engine.Event], engine.GameState]:
        return engine.resign(state, seat, left=left)

    return step


def _taken_over(seat: int, reason: Any) -> Step:
    def step(state: engine.GameState) -> tuple[list[engine.Event], engine.GameState]:
        if reason not in ("timeout", "resign"):
            raise engine.IllegalMove("invalid", "No such reason for a takeover.")
        return engine.take_over(state, seat, reason)

    return step


# How far past the next event a move's bank_changed may be: a move that ends a round logs the
# round's end and the next deal before it.
_BANK_LOOKAHEAD = 64


def _banks_left(
    state: engine.GameState, log: Sequence[engine.Event], position: int
) -> list[int | None]:
    """With a bank clock, the seconds ``left`` in the bank of the seat to act that the service
    read from its clock and gave the engine for a move: the log does not hold them, so they are
    read back from the next ``bank_changed`` of that seat (its own move: what was left plus the
    increment; another seat's jump-in: what was left), else from the bank it had (no
    ``bank_changed``: the move left it as it was), else None (no time spent).

    In that order: a move whose bank does not change logs its events without the
    ``bank_changed``, a prefix of the same move's events with one, and ``_next_step`` takes the
    first candidate whose events the log begins with."""
    options = state.options
    if not options.bank or state.status != "active":
        return [None]
    actor = state.actor
    lefts: list[int | None] = []
    changed = next(
        (
            e
            for e in log[position : position + _BANK_LOOKAHEAD]
            if e["type"] == "bank_changed" and e["seat"] == actor
        ),
        None,
    )
    if changed is not None and _is_int(changed["data"].get("bank")):
        bank = changed["data"]["bank"]
        lefts += [bank - options.bank_increment, bank]
    lefts += [state.banks[actor] - options.bank_increment, None]
    return [left for left in dict.fromkeys(lefts) if left is None or left >= 0]


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
    lefts = _banks_left(state, log, position)
    steps: list[Step] = []
    if upcoming["type"] == "timed_out":
        steps.append(engine.time_out)
        if takeover:
            steps.append(_timing_out_kept)
    if upcoming["type"] == "forfeited" and seat is not None:
        steps.extend(_resigning(seat, left) for left in lefts)
    if upcoming["type"] == "seat_taken_over" and takeover and seat is not None:
        steps.append(_taken_over(seat, upcoming["data"].get("reason")))
    played = _played_action(log, position)
    if played is not None and seat is not None:
        steps.extend(_acting(seat, played, left) for left in lefts)
    seats = list(range(state.players))
    if isinstance(seat, int) and 0 <= seat < state.players:
        seats.remove(seat)
        seats.insert(0, seat)
    for who in seats:
        for action in engine.legal_actions(state, who):
            steps.extend(_acting(who, action, left) for left in lefts)
    steps.append(engine.time_out)
    return steps


def _played_action(log: Sequence[engine.Event], position: int) -> dict[str, Any] | None:
    """The play a ``card_played`` event logs, as an action: the only form for a set of cards
    (``multi_play``) or a gift (``two_gives``), which the legal actions do not list."""
    upcoming = log[position]
    data = upcoming["data"]
    # Data the engine never writes (a forged log) gives no action: the legal ones are tried.
    if upcoming["type"] != "card_played" or data.get("auto") or not _cards(data.get("cards")):
        return None
    cards = list(data["cards"])
    action: dict[str, Any] = {"action": "play", "uno": bool(data.get("uno"))}
    if len(cards) == 1:
        action["card"] = cards[0]
    else:
        action["cards"] = cards
    if cards[-1] in ("wild", "wild-draw4"):
        if data.get("color") not in COLORS:
            return None
        action["color"] = data["color"]
    if "target" in data:
        if not _is_int(data["target"]):
            return None
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
        given = gift["data"]
        if not (_cards(given.get("cards"), empty=True) and _is_int(given.get("target"))):
            return None
        action["give"] = list(given["cards"])
        action["target"] = given["target"]
        action["uno"] = bool(given.get("uno")) or action["uno"]
    return action


def _cards(value: object, *, empty: bool = False) -> bool:
    """``value`` is a list of card codes (not empty, unless ``empty``)."""
    return (
        isinstance(value, list)
        and (empty or bool(value))
        and all(isinstance(card, str) and card in CARD_CODES for card in value)
    )


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


def commitment_problem(seen: str) -> str | None:
    """Why ``seen``, a deck commitment given by hand, cannot be one (64 hex digits), or None."""
    if len(seen) == 64 and all(char in "0123456789abcdefABCDEF" for char in seen):
        return None
    return f"the commitment {seen!r} is not 64 hex digits (sha256 in hex)"


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m games.fairness EXPORT.json [COMMITMENT]``: exit status 0 when the export
    verifies (and commits to ``COMMITMENT``, the deck commitment seen before the deal), 1 when
    it does not, 2 when the input is no export (or the arguments are wrong): one line, never a
    traceback."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) not in (1, 2):
        print("usage: python -m games.fairness EXPORT.json [COMMITMENT]", file=sys.stderr)
        return 2
    seen = args[1] if len(args) == 2 else None
    wrong = None if seen is None else commitment_problem(seen)
    if wrong is not None:
        print(f"error: {wrong}", file=sys.stderr)
        return 2
    try:
        document = load_export(args[0])
    except NotAnExport as broken:
        print(f"error: {broken}", file=sys.stderr)
        return 2
    report = verify_export(document, seen=seen)
    if report.malformed is not None:
        print(f"error: {args[0]}: {report.text()}", file=sys.stderr)
        return 2
    print(report.text(), file=sys.stdout if report.ok else sys.stderr)
    return 0 if report.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
