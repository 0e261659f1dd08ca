"""A finished game's final standing, rated in the transaction that ends the game.

``GameWrite.append`` calls ``game_ended`` when the events it appends end the game: the ratings
(``players.ratings``) are written before that write commits, with the result, or not at all.

The standing: the winner first (with teams, the winning team's seats, tied), then the others by
score (the highest first; with ``penalty`` scoring, the lowest), then the seats that forfeited, the
last to forfeit first. Equal scores share a place.
"""

from __future__ import annotations

from games import engine, eventstore
from games.models import Game
from players.models import Guest
from players.ratings import Placed, rate_game


def final_standing(state: engine.GameState, forfeits: list[int]) -> list[tuple[int, int]]:
    """``(seat, place)`` of every seat of a finished game, best first; ``forfeits`` are the seats
    that forfeited, in the order they did."""
    teams = state.options.teams
    lowest_wins = state.options.scoring == "penalty"
    gave_up = {seat: order for order, seat in enumerate(forfeits)}

    def won(seat: int) -> bool:
        if teams:
            return state.winner_team is not None and seat % teams == state.winner_team
        return seat == state.winner

    def key(seat: int) -> tuple[int, int]:
        if seat in gave_up:
            return (2, -gave_up[seat])
        if won(seat):
            return (0, 0)
        score = state.scores[seat]
        return (1, score if lowest_wins else -score)

    seats = sorted(range(state.players), key=key)
    places: list[tuple[int, int]] = []
    for index, seat in enumerate(seats):
        tied = index and key(seats[index - 1]) == key(seat)
        places.append((seat, places[-1][1] if tied else index + 1))
    return places


def game_ended(game: Game, state: engine.GameState) -> None:
    """Rate the players of ``game``, which ``state`` (its last) has just finished. A game with a
    guest seated is not rated (ratings are for registered players, who chose a name to keep)."""
    if Guest.objects.filter(user_id__in=[entry["id"] for entry in game.roster]).exists():
        return
    forfeits = _forfeits(game)
    standing = final_standing(state, forfeits)
    winners = {seat for seat, place in standing if place == 1 and seat not in forfeits}
    rate_game([Placed(game.roster[seat]["id"], place, seat in winners) for seat, place in standing])


def _forfeits(game: Game) -> list[int]:
    seats = eventstore.select_events(game.pk, types=("forfeited",)).values_list("seat", flat=True)
    return [seat for seat in seats if seat is not None]


def game_standing(game: Game, state: engine.GameState) -> list[tuple[int, int]]:
    """``(seat, place)`` of a finished game (``final_standing``, its forfeits read from its log):
    what ratings and tournaments (``service.tournament_steps``) count."""
    return final_standing(state, _forfeits(game))
