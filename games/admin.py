"""The admin shows games, seats and the event log, read-only: the log is the truth."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.models import Event, Game, Hand, Seat


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
    exclude = ("state", "seed", "deck")


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ("game", "number", "player", "status", "score")
    list_select_related = ("player",)


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    list_display = ("game", "seat")


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ("game", "seq", "type", "seat", "created_at")
    list_filter = ("type",)
    search_fields = ("game__id",)
