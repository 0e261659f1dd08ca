"""A sound heuristic player: the ``basic`` level.

It says UNO and catches whenever it may (off its turn too), jumps in when the card sheds well,
keeps its wild cards for when nothing else plays, steers play to the colour it holds most of,
attacks a seat about to go out, stacks on a draw penalty, gives a 7's swap to the seat with the
fewest cards (when that helps), and challenges a wild-draw4 when the odds that its player bluffed
make it pay.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.engine.bots.knowledge import Action, Knowledge, SeatView, most_held_color, read
from games.engine.bots.random_play import is_actor
from games.engine.cards import COLOR_OF, COLORS, POINTS, RANK_OF, WILD_DRAW4, WILDS
from games.engine.events import Event

# A challenge costs 2 more cards when it fails and gives 4 to the other seat when it succeeds:
# it pays when the bluff is likelier than this. The naive estimate (the colour's share of the
# unknown cards, drawn independently) overstates a bluff: players mostly play a wild-draw4
# when they lack the colour. Halve it.
CHALLENGE_ODDS = 0.2
BLUFF_DISCOUNT = 0.5


def bluff_odds(k: Knowledge, hand: Sequence[str], color: str | None, held: int) -> float:
    """The odds that a seat holding ``held`` cards still holds one of ``color``."""
    if color is None or held <= 0:
        return 0.0
    share = k.color_share(hand, color)
    return BLUFF_DISCOUNT * (1.0 - (1.0 - share) ** held)


def _next_seat(seen: SeatView, seat: int, steps: int = 1) -> int:
    seats = seen["seats"]
    direction = seen["round"]["direction"]
    for _ in range(steps):
        seat = (seat + direction) % len(seats)
        while seats[seat]["status"] != "playing":
            seat = (seat + direction) % len(seats)
    return seat


def _counts(seen: SeatView) -> list[int]:
    return [entry["hand_count"] for entry in seen["seats"]]


# The aware player (the search player's own heuristic) also steers to a colour the next seat
# likely lacks (``Knowledge.lacks``): it must draw then. Worth this many cards of the colour held.
LACKS_WEIGHT = 2.0


def _score_play(
    seen: SeatView,
    hand: Sequence[str],
    action: Action,
    seven_zero: bool,
    aware: Knowledge | None = None,
) -> float:
    """How good playing ``action`` is now: higher is better. ``aware``: what the seat knows of
    the others' hands, to steer play to a colour the next seat lacks."""
    seat = seen["you"]["seat"]
    card = action["card"]
    rest = list(hand)
    rest.remove(card)
    counts = _counts(seen)
    victim = _next_seat(seen, seat)
    danger = counts[victim] <= 2  # the next seat is about to go out
    rank = RANK_OF[card]
    score = 0.0
    if card in WILDS:
        # Kept for need: played only when nothing else plays, a wild-draw4 first (it is honest
        # then: holding the colour would have given another play).
        score -= 20.0
        if card == WILD_DRAW4:
            score += 2.0 + (6.0 if danger else 0.0)
        color = action["color"]
        score += 3.0 * sum(1 for c in rest if COLOR_OF[c] == color)
    else:
        color = COLOR_OF[card]
        score += 2.0 * sum(1 for c in rest if COLOR_OF[c] == color)
        if rank in ("skip", "reverse", "draw2"):
            score += 1.5 + (8.0 if danger else 0.0)
            if rank == "draw2":
                score += 1.0
        score += POINTS[card] / 20.0  # shed points when all else is equal
    if "target" in action:
        mine = len(rest)
        theirs = counts[action["target"]]
        score += 3.0 * (mine - theirs)  # a swap is worth the cards it sheds
        score -= 0.1 * theirs  # the smallest hand first
    elif rank == "0" and seven_zero:
        # Every hand moves one seat on: this seat takes the hand of the seat behind it.
        behind = _next_seat({**seen, "round": {"direction": -seen["round"]["direction"]}}, seat)
        score += 3.0 * (len(rest) - counts[behind])
    if action.get("uno"):
        score += 100.0
    if aware is not None and color is not None and rest:
        score += 2.0 * LACKS_WEIGHT * aware.lacks(hand, victim, color, counts[victim])
    return score


def ranked_plays(
    seen: SeatView, plays: list[Action], k: Knowledge, aware: bool = False
) -> list[Action]:
    """``plays`` best first, as the basic player ranks them (``aware``: as the aware one)."""
    hand = seen["you"]["hand"]
    seven_zero = k.options.seven_zero
    known = k if aware else None
    order = sorted(
        range(len(plays)),
        key=lambda i: (-_score_play(seen, hand, plays[i], seven_zero, known), i),
    )
    return [plays[i] for i in order]


def _best_play(
    seen: SeatView, hand: Sequence[str], plays: list[Action], k: Knowledge, aware: bool = False
) -> Action:
    return ranked_plays(seen, plays, k, aware)[0]


def _off_turn(seen: SeatView, by_kind: dict[str, list[Action]], k: Knowledge) -> Action | None:
    """Off its turn the seat may jump in: it does when the card sheds well (a 7 or a 0 under
    seven_zero must not take a bigger hand)."""
    plays = by_kind.get("play", [])
    if not plays:
        return None
    hand = seen["you"]["hand"]
    best = _best_play(seen, hand, plays, k)
    return best if _score_play(seen, hand, best, k.options.seven_zero) >= 0 else None


def decide(
    rng: random.Random,
    seen: SeatView,
    events: Sequence[Event] = (),
    *,
    aware: bool = False,
    knowledge: Knowledge | None = None,
) -> Action | None:
    """The basic player's action for the seat that sees ``seen`` (and ``events``); off its turn,
    ``None`` when it does nothing now. ``aware`` makes it the search player's heuristic: it also
    steers play to a colour the next seat likely lacks. ``knowledge``: ``read(seen, events)``,
    when the caller has it already."""
    you = seen["you"]
    legal: list[Action] = you["legal_actions"] if you else []
    actor = is_actor(seen)
    if not legal:
        if not actor:
            return None
        raise ValueError("the seat has no legal action now")
    by_kind: dict[str, list[Action]] = {}
    for action in legal:
        by_kind.setdefault(action["action"], []).append(action)
    if "uno" in by_kind:
        return by_kind["uno"][0]
    if "catch" in by_kind:
        counts = _counts(seen)
        return min(by_kind["catch"], key=lambda a: counts[a["target"]])
    hand: list[str] = you["hand"]
    k = knowledge if knowledge is not None else read(seen, events)
    if not actor:
        return _off_turn(seen, by_kind, k)
    plays = by_kind.get("play", [])
    pending = seen["round"]["pending"]
    mine = pending is not None and pending["seat"] == you["seat"]
    if "color" in by_kind:
        color = most_held_color(hand)
        if aware:
            color = max(
                COLORS,
                key=lambda c: (
                    sum(1 for card in hand if COLOR_OF[card] == c)
                    + LACKS_WEIGHT * k.lacks(hand, _next_seat(seen, you["seat"]), c, 7),
                    c == color,
                ),
            )
        return next(a for a in by_kind["color"] if a["color"] == color)
    if mine and pending["type"] == "play_drawn":
        card = pending.get("card")
        if plays and card not in WILDS:
            return _best_play(seen, hand, plays, k, aware)
        counts = _counts(seen)
        small = min(c for s, c in enumerate(counts) if s != you["seat"]) <= 2
        if plays and (small or len(hand) <= 2 or "pass" not in by_kind):
            return _best_play(seen, hand, plays, k, aware)
        return by_kind["pass"][0]
    if mine and pending["type"] in ("wild_draw4", "draw_penalty"):
        if plays:  # stacking: pass the penalty on, a draw2 before a wild-draw4
            return _best_play(seen, hand, plays, k, aware)
        if "challenge" in by_kind:
            held = seen["seats"][pending["from_seat"]]["hand_count"]
            if bluff_odds(k, hand, pending.get("previous_color"), held) > CHALLENGE_ODDS:
                return by_kind["challenge"][0]
            return by_kind["accept"][0]
        return by_kind["draw"][0]
    if plays:
        return _best_play(seen, hand, plays, k, aware)
    if "draw" in by_kind:
        return by_kind["draw"][0]
    return rng.choice(legal)
