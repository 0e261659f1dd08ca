"""The admin shows games, seats and the event log, read-only: the log is the truth.

Staff see no card the game view would hide from them until the game is finished (issue 11: a
staff user seated in a game read the opponent's hand and the deck here): hands of other seats
of unfinished games are not listed, and an event shows its data as the game's log shows it to
that user (``engine.event_view``).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth.models import User
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import HttpRequest

from games import engine
from games.models import Event, Game, GameStatus, Hand, Seat
from games.selectors import seat_of


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    readonly_fields = ("number", "player", "status", "score", "joined_at")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ("id", "status", "version", "max_players", "current_seat", "turn_deadline")
    list_filter = ("status",)
    search_fields = ("id",)
    inlines = [SeatInline]
    # The salt and the chain's head derive the deck and the hashes: secret as the seed is.
    exclude = ("state", "seed", "salt", "last_hash", "deck")


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ("game", "number", "player", "status", "score")
    list_select_related = ("player",)


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    list_display = ("game", "seat")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Hand]:
        own = Seat.objects.filter(
            game=OuterRef("game"), number=OuterRef("seat"), player_id=request.user.pk
        )
        return (
            super().get_queryset(request).filter(Q(game__status=GameStatus.FINISHED) | Exists(own))
        )


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ("game", "seq", "type", "seat", "created_at")
    list_filter = ("type",)
    search_fields = ("game__id",)
    list_select_related = ("game",)

    def get_object(
        self, request: HttpRequest, object_id: str, from_field: str | None = None
    ) -> Any:
        event = super().get_object(request, object_id, from_field)
        if event is not None:
            # Shown, never saved (the admin is read-only): the data as the log shows it to them.
            game = event.game
            item = engine.Event(type=event.type, seat=event.seat, data=event.data)
            finished = game.status == GameStatus.FINISHED
            seat = seat_of(game, request.user) if isinstance(request.user, User) else None
            event.data = engine.event_view(item, seat, finished)["data"]
            if not finished:
                event.hash = ""  # the hash of a hidden card tells the card (docs/fairness.md)
        return event
