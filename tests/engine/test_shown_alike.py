"""``shown_alike``: the event types every viewer sees the same, which the streams render once."""

from __future__ import annotations

import random

from games import engine
from games.engine.shapes import EVENT_DATA


def test_an_event_shown_alike_looks_the_same_to_every_seat_and_spectator_finished_or_not() -> None:
    seen: set[str] = set()
    for seed in range(5):
        options = engine.make_options({}, target_score=200)
        events = engine.start_game(3, options, seed)
        state = engine.replay(events)
        rng = random.Random(seed)
        for _ in range(300):
            if state.status != "active":
                break
            new, state = engine.act(
                state, state.actor, rng.choice(engine.legal_actions(state, state.actor))
            )
            events = [*events, *new]
        for event in events:
            views = {
                repr(engine.event_view(event, viewer, revealed))
                for viewer in (None, 0, 1, 2)
                for revealed in (False, True)
            }
            if engine.shown_alike(event["type"]):
                seen.add(event["type"])
                assert views == {repr(event)}, event["type"]
            elif event["type"] in ("cards_drawn", "round_started"):
                assert len(views) > 1, event["type"]
    assert "card_played" in seen
    assert not engine.shown_alike("cards_drawn") and "cards_drawn" in EVENT_DATA
