"""Admin registrations for the players app: the reports staff handle, the chat silences they set,
and the blocks (read-only: players make and end them)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from players.models import Block, ChatSilence, Report

SILENCE_HOURS = (24, 24 * 7)


def _silence(hours: int) -> Callable[[ReportAdmin, HttpRequest, QuerySet[Report]], None]:
    """An admin action: silence the chat of the reported players for ``hours``."""

    def action(modeladmin: ReportAdmin, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        until = timezone.now() + timedelta(hours=hours)
        staff = request.user if request.user.is_authenticated else None
        reported = {row.reported_id for row in queryset}
        ChatSilence.objects.bulk_create(
            ChatSilence(player_id=player, until=until, reason="From a report", by=staff)
            for player in reported
        )
        queryset.update(handled=True)
        modeladmin.message_user(
            request, f"Chat of {len(reported)} player(s) silenced for {hours} h.", messages.SUCCESS
        )

    action.__name__ = f"silence_{hours}h"
    described = admin.action(description=f"Silence the reported players' chat for {hours} h")
    return described(action)


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("created_at", "reporter", "reported", "reason", "game", "seq", "handled")
    list_filter = ("handled", "reason")
    search_fields = ("reporter__username", "reported__username", "note")
    readonly_fields = ("reporter", "reported", "reason", "note", "game", "seq", "created_at")
    actions = [_silence(hours) for hours in SILENCE_HOURS]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(ChatSilence)
class ChatSilenceAdmin(admin.ModelAdmin):
    list_display = ("player", "until", "reason", "by", "created_at")
    search_fields = ("player__username",)
    raw_id_fields = ("player", "by")


@admin.register(Block)
class BlockAdmin(admin.ModelAdmin):
    list_display = ("blocker", "blocked", "created_at")
    search_fields = ("blocker__username", "blocked__username")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Block | None = None) -> bool:
        return False
