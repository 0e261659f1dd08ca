"""A tournament's log: the types of its entries and the shape of each one's data, defined once.

The service appends (``service.tournaments``), the fold reads (``games.tournament_fold``), the
stream sends each entry as a ``tournament_changed`` frame. No entry holds a card: a table is its
game's id and the players by seat; a result is the places.
"""

from __future__ import annotations

from typing import Final, TypedDict


class TableData(TypedDict):
    round: int
    table: int
    deal: int
    game: str
    seats: list[int]  # player ids by seat (a bot filling a seat: the bot user's id)
    bots: list[int]  # the seats a built-in bot fills


class PlaceData(TypedDict):
    player: int
    seat: int
    place: int  # 1 the winner; equal places share


class TableFinishedData(TypedDict):
    round: int
    table: int
    deal: int
    game: str
    places: list[PlaceData]
    winner: int | None  # the winner's player id


CREATED: Final = "tournament_created"
JOINED: Final = "player_joined"
WITHDREW: Final = "player_withdrew"
STARTED: Final = "tournament_started"
# data: {"players"}: those told the start is near (``tournament_starting``), before it
START_NEAR: Final = "start_near"
ROUND_PAIRED: Final = "round_paired"  # data: {"round", "order", "tables": [TableData]}
TABLE_SEATED: Final = "table_seated"  # data: TableData (an arena's table: and its "order")
TABLE_FINISHED: Final = "table_finished"  # data: TableFinishedData
ROUND_FINISHED: Final = "round_finished"  # data: {"round", "revealed": [game ids]}
FINISHED: Final = "tournament_finished"  # data: {"standings", "reason"}

TYPES: Final = (
    CREATED,
    JOINED,
    WITHDREW,
    STARTED,
    START_NEAR,
    ROUND_PAIRED,
    TABLE_SEATED,
    TABLE_FINISHED,
    ROUND_FINISHED,
    FINISHED,
)
