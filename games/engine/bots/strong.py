"""A search player: the ``strong`` level, determinised Monte Carlo over the engine.

It starts from the aware heuristic (``basic.decide(aware=True)``: the basic player that also
steers to a colour the next seat likely lacks). Each iteration deals the cards its seat cannot
see at random, consistently with what it has seen (``knowledge.read``: the hand counts, the
discard pile, cards known to be in a hand, the colours and ranks a seat that drew most likely
lacks; and a hand is dealt again when the basic player holding it would not have chosen the
cards that seat chose to play since it last drew, ``knowledge.agrees``), then plays every
candidate action in that same world (common random numbers): the move itself by the
engine (``rules.act``), the rest of the round by the fast playout (``fastsim``: every seat the
heuristic's cheap cousin, to the round's end), scoring 1 for a round the seat wins, else 0.
Every ``PRUNE_EVERY`` worlds a candidate that clearly loses to the heuristic's choice is dropped.
The heuristic's choice stands unless another wins more of the same worlds by ``CONFIDENCE``
standard errors of the paired difference: with few worlds the search is noisy.

It thinks until ``budget`` seconds have passed (by ``clock``, from the start of the decision;
it starts no world that the last one's time says would end past it) or after ``iterations``
worlds, whichever comes first: a ``budget`` of 0 makes its choice depend on the random source
alone (the tests). Decisions off its own turn (UNO, catches, jumping in) and lone choices are
the heuristic's. Under house rules the fast playout does not model, a world is played a few moves
on by the engine instead and valued by the hand sizes.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence

from games.engine.bots import basic, fastsim
from games.engine.bots.knowledge import SUITS, Action, Knowledge, SeatView, agrees, read
from games.engine.cards import COLOR_OF, COLORS, WILDS
from games.engine.errors import IllegalMove
from games.engine.events import Event
from games.engine.evolve import pending_from_data
from games.engine.rules import act
from games.engine.state import GameState
from games.engine.views import legal_actions

BUDGET = 0.08  # seconds per decision, by default: p99 under 100 ms (a world ends past it)
ITERATIONS = 5000  # worlds per decision at most: the budget ends a search first
MIN_ITERATIONS = 4  # worlds per decision at least, whatever the clock says
# The clock of the budget: the wall clock, what a player waits for. On a machine shared with other
# work a benchmark may pass ``time.thread_time`` (this thread's CPU time) to measure strength.
CLOCK: Callable[[], float] = time.perf_counter
HAND_WEIGHT = 0.45
WILD_WEIGHT = 0.35
# Cards searched, among the heuristic's best (each in its colours and to each target).
CARDS = 8
# The search overrules the heuristic's choice only when another action wins more of the
# same worlds by this many standard errors of the paired difference: few worlds are noisy.
CONFIDENCE = 0.5
# Every few worlds an action that loses to the heuristic's choice by this many standard errors is
# dropped, so the worlds go to the contenders (and the search ends when none is left).
PRUNE_EVERY = 6
PRUNE_CONFIDENCE = 2.0
SEARCH_DRAWN = True
AWARE = True  # the heuristic it starts from steers to the colours the next seat lacks
DRAW_WITH_PLAYS = False  # drawing with a card to play: rarely right, and noise to the search
WILD_COLORS = 2  # a wild is searched in the colours the hand holds most of
# A hand dealt to a seat that disagrees with the colours its plays showed (``Knowledge.prefers``)
# is dealt again, up to this many times (then the last deal stands).
AGREE_TRIES = 12


def depth_for(players: int) -> int:
    """Moves a playout looks ahead: about two rounds of the table."""
    return 4 + 3 * players


def determinise(rng: random.Random, seen: SeatView, k: Knowledge) -> GameState:
    """One world consistent with what the seat has seen: the hidden cards dealt at random."""
    return deal(rng, seen, k, table(seen, k))


def table(seen: SeatView, k: Knowledge) -> GameState:
    """The world as the seat sees it, every hidden card left out (the other hands empty, no
    draw pile): ``deal`` fills it in for each world, so the public part is built once a
    decision."""
    me = seen["you"]["seat"]
    rnd = seen["round"]
    statuses = tuple(entry["status"] for entry in seen["seats"])
    hands = tuple(tuple(seen["you"]["hand"]) if s == me else () for s in range(len(statuses)))
    return GameState(
        players=len(statuses),
        options=k.options,
        seed=0,
        status="active",
        round_number=rnd["number"],
        dealer=rnd["dealer"],
        hands=hands,
        statuses=statuses,
        scores=tuple(entry["score"] for entry in seen["seats"]),
        timeouts=tuple(entry.get("timeouts", 0) for entry in seen["seats"]),
        uno=frozenset(s for s, entry in enumerate(seen["seats"]) if entry["uno"]),
        catchable=frozenset(
            s for s, entry in enumerate(seen["seats"]) if entry.get("catchable", False)
        ),
        draw_pile=(),
        discard_pile=tuple(k.discard),
        color=rnd["color"],
        direction=rnd["direction"],
        current=rnd["current_seat"],
        pending=pending_from_data(rnd["pending"]),
        shuffles=0,
        penalty_drawn=None,
        out_order=tuple(s for s, status in enumerate(statuses) if status == "out"),
        last_round=None,
        winner=None,
        given_deck=False,
    )


def deal(rng: random.Random, seen: SeatView, k: Knowledge, public: GameState) -> GameState:
    """``public`` (``table``) with the cards the seat cannot see dealt at random: each other
    hand its known cards and a sample of the unknown ones (its voids respected), the rest the
    draw pile."""
    me = seen["you"]["seat"]
    pool = list(k.pool if k.pool is not None else k.unknown_pool(seen["you"]["hand"]))
    shuffle(rng, pool)
    hands = list(public.hands)
    randrange = rng.randrange
    for s, entry in enumerate(seen["seats"]):
        if s == me:
            continue
        known = tuple(k.known[s][: entry["hand_count"]])
        need = entry["hand_count"] - len(known)
        hand = (*known, *_sample(pool, need, k.voids[s]))
        prefers = k.prefers[s] if k.prefers else ()
        for _ in range(AGREE_TRIES if prefers else 0):
            if agrees(hand, prefers):
                break
            # Put the sample back into the pool, each card anywhere, and deal again.
            for card in hand[len(known) :]:
                pool.insert(randrange(len(pool) + 1), card)
            hand = (*known, *_sample(pool, need, k.voids[s]))
        hands[s] = hand
    return public.evolve(hands=tuple(hands), draw_pile=tuple(pool), seed=rng.getrandbits(31))


def shuffle(rng: random.Random, cards: list[str]) -> None:
    """Shuffle ``cards`` in place, every order alike: sorted by a random number each (some ten
    times as quick as ``rng.shuffle``, a random integer a card: the deal is a world's largest
    cost after its playouts)."""
    rand = rng.random
    cards.sort(key=lambda _card: rand())


def _sample(pool: list[str], need: int, voids: dict[str, int]) -> list[str]:
    """Take ``need`` cards out of the shuffled ``pool`` for a hand with ``voids``: card ``i`` of
    the hand may be of a suit (``SUITS``: its colour, its rank) only if ``i`` is below that
    suit's bound. The most bound cards
    are dealt first; a card no pool card can fill takes any."""
    if not voids:
        taken = pool[:need]
        del pool[:need]
        return taken
    taken = []
    for i in range(need - 1, -1, -1):
        barred = {suit for suit, bound in voids.items() if bound <= i}
        index = next(
            (j for j, card in enumerate(pool) if barred.isdisjoint(SUITS[card])),
            0,
        )
        if index < len(pool):
            taken.append(pool.pop(index))
    return taken


def _playout_action(rng: random.Random, state: GameState, seat: int) -> Action:
    """A quick, sensible move for any seat of a world: a cheap cousin of the basic player."""
    hand = state.hands[seat]
    colors = Counter(COLOR_OF[c] for c in hand)
    best: Action | None = None
    best_score = -math.inf
    for action in legal_actions(state, seat):
        kind = action["action"]
        if kind == "play":
            card = action["card"]
            score = 10.0 - (15.0 if card in WILDS else 0.0) + (5.0 if action.get("uno") else 0.0)
            color = action.get("color") or COLOR_OF[card]
            score += colors[color]
        elif kind == "color":
            score = float(colors[action["color"]])
        elif kind in ("uno", "catch", "challenge"):
            continue
        else:
            score = 0.0
        score += rng.random()
        if score > best_score:
            best, best_score = action, score
    if best is None:
        raise IllegalMove("not_your_turn", "no move in this world")
    return best


def _burden(hand: Sequence[str]) -> float:
    """How far a hand is from going out: a wild plays on anything, so it weighs less."""
    return sum(WILD_WEIGHT if card in WILDS else 1.0 for card in hand)


def _value(state: GameState, me: int, number: int) -> float:
    last = state.last_round
    if last is not None and last.number == number:
        return 1.0 if last.winner_seat == me else 0.0
    if state.statuses[me] != "playing":
        return 1.0
    weights = [
        math.exp(-HAND_WEIGHT * _burden(state.hands[s]))
        for s in range(state.players)
        if state.statuses[s] == "playing"
    ]
    return math.exp(-HAND_WEIGHT * _burden(state.hands[me])) / sum(weights)


def playout(world: GameState, me: int, action: Action, seed: int, fast: bool = True) -> float:
    """The value for ``me`` of ``action`` in ``world``: 1 if it wins the round played out, else
    0 (the hands decide a round cut off). Rules the fast playout models (``fast``:
    ``fastsim.supports`` the world's options) play to the round's end (``fastsim``); others take
    a short heuristic playout on the engine."""
    number = world.round_number
    _, state = act(world, me, action)
    if fast and state.status == "active" and state.round_number == number:
        winner = fastsim.Round(state, fastsim.LazyRandom(seed)).run()
        if winner is not None:
            return 1.0 if winner == me else 0.0
        return _value(state, me, number)
    rng = random.Random(seed)
    for _ in range(depth_for(world.players)):
        if state.status != "active" or state.round_number != number:
            break
        seat = state.actor
        _, state = act(state, seat, _playout_action(rng, state, seat))
    return _value(state, me, number)


def candidates(seen: SeatView, legal: Sequence[Action], k: Knowledge) -> list[Action]:
    """The actions worth searching: the cards the basic player ranks highest (``CARDS``), each
    in every colour the hand holds (any if none) and to every target, with UNO said when it
    may be; and every other kind of listed action (draw, pass, challenge, accept)."""
    hand = seen["you"]["hand"]
    plays = [a for a in legal if a["action"] == "play"]
    best_cards: list[str] = []
    for action in basic.ranked_plays(seen, plays, k):
        if action["card"] not in best_cards:
            best_cards.append(action["card"])
    best_cards = best_cards[:CARDS]
    counts = Counter(COLOR_OF[c] for c in hand if c not in WILDS)
    held = {color for color, _ in counts.most_common(WILD_COLORS)} or set(COLORS)
    with_uno = {(a.get("card"), a.get("color"), a.get("target")) for a in legal if a.get("uno")}
    chosen: list[Action] = []
    for action in legal:
        if action["action"] == "play":
            key = (action.get("card"), action.get("color"), action.get("target"))
            if not action.get("uno") and key in with_uno:
                continue
            if action["card"] in WILDS and action["color"] not in held:
                continue
            if action["card"] not in best_cards:
                continue
        elif action["action"] == "draw" and plays and not DRAW_WITH_PLAYS:
            continue
        chosen.append(action)
    return chosen


def decide(
    rng: random.Random,
    seen: SeatView,
    events: Sequence[Event] = (),
    *,
    budget: float | None = None,
    iterations: int | None = None,
    clock: Callable[[], float] | None = None,
) -> Action | None:
    """The search player's action for the seat that sees ``seen`` (and ``events``).

    ``budget`` seconds by ``clock`` (``BUDGET`` by ``CLOCK`` unless given), at most ``iterations``
    worlds (``ITERATIONS``); ``budget=0`` and an ``iterations`` count make the choice depend on the
    random source alone."""
    budget = BUDGET if budget is None else budget
    iterations = ITERATIONS if iterations is None else iterations
    clock = clock or CLOCK
    started = clock()  # the budget counts the whole decision, the heuristic's choice included
    k = read(seen, events)
    fallback = basic.decide(rng, seen, events, aware=AWARE, knowledge=k)
    you = seen["you"]
    me = you["seat"]
    rnd = seen["round"]
    pending = rnd["pending"]
    actor = pending["seat"] if pending is not None else rnd["current_seat"]
    legal: list[Action] = you["legal_actions"]
    if actor != me or iterations <= 0 or any(a["action"] in ("uno", "catch") for a in legal):
        return fallback
    if pending is not None and pending["type"] == "play_drawn" and not SEARCH_DRAWN:
        return fallback
    options = candidates(seen, legal, k)
    if fallback is not None and fallback not in options:
        options.append(fallback)
    if len(options) <= 1:
        return fallback
    k.pool = k.unknown_pool(you["hand"])
    base = options.index(fallback) if fallback in options else None
    values: list[list[float]] = [[] for _ in options]
    # By action: the sum of its paired differences from the heuristic's choice, and of their
    # squares, so that pruning costs the same in the hundredth world as in the first.
    gained = [0.0] * len(options)
    squared = [0.0] * len(options)
    alive = list(range(len(options)))
    public = table(seen, k)
    fast = fastsim.supports(k.options)
    now = started
    world_time = 0.0  # how long the last world took: the next one, with no more candidates
    done = 0
    while done < iterations and len(alive) > 1:
        # Stop before a world that would end past the budget: the budget bounds the think time.
        out_of_time = budget > 0 and now - started + world_time > budget
        if out_of_time and done >= MIN_ITERATIONS:
            break
        world = deal(rng, seen, k, public)
        seed = rng.getrandbits(32)
        for index in alive:
            values[index].append(playout(world, me, options[index], seed, fast))
        done += 1
        last, now = now, clock()
        world_time = now - last
        if base is None:
            continue
        reference = values[base][-1]
        for index in alive:
            diff = values[index][-1] - reference
            gained[index] += diff
            squared[index] += diff * diff
        if done % PRUNE_EVERY == 0:
            alive = [
                i for i in alive if i == base or not _clearly_worse(gained[i], squared[i], done)
            ]
    chosen = pick([values[i] for i in alive], alive.index(base) if base is not None else None)
    return options[alive[chosen]]


def _paired(values: Sequence[float], base: Sequence[float]) -> tuple[float, float]:
    """The mean of the paired differences ``values - base`` and its standard error."""
    diffs = [a - b for a, b in zip(values, base, strict=True)]
    return _mean_error(sum(diffs), sum(d * d for d in diffs), len(diffs))


def _mean_error(total: float, squares: float, n: int) -> tuple[float, float]:
    """The mean of ``n`` differences and its standard error, from their sum and their squares'."""
    mean = total / n
    spread = max(squares - n * mean * mean, 0.0) / max(n - 1, 1)
    return mean, math.sqrt(spread / n)


def _clearly_worse(total: float, squares: float, n: int) -> bool:
    """Whether an action is no contender, from its ``n`` paired differences from the heuristic's
    choice (their sum and their squares' sum): it loses clearly, or it has done no better than
    the heuristic's choice in any world so far (after two rounds of pruning)."""
    mean, error = _mean_error(total, squares, n)
    if error == 0 and mean <= 0 and n >= 2 * PRUNE_EVERY:
        return True
    return mean + PRUNE_CONFIDENCE * error < 0


def pick(values: Sequence[Sequence[float]], base: int | None) -> int:
    """The index of the action to take, from each action's values in the same worlds: the
    basic player's (``base``) unless another beats it by ``CONFIDENCE`` standard errors of the
    paired difference; without a ``base``, the best mean."""
    n = len(values[0])
    if n == 0:
        return base or 0
    means = [sum(v) / n for v in values]
    if base is None:
        return max(range(len(values)), key=lambda i: (means[i], -i))
    best, best_margin = base, 0.0
    for index, v in enumerate(values):
        if index == base:
            continue
        mean, error = _paired(v, values[base])
        margin = mean - CONFIDENCE * error
        if margin > best_margin:
            best, best_margin = index, margin
    return best
