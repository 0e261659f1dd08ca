"""Admin registrations for the players app: the reports staff handle, the chat silences they set,
the blocks (read-only: players make and end them), and Django's users, whose forms keep the
guests' form of name for guests."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.html import format_html_join

from games.models import ChatMessage
from players.models import Block, ChatSilence, Guest, Report, is_bot_name, reserved_name_refusal

SILENCE_HOURS = (24, 24 * 7)
CHAT_AROUND = 10  # events either side of a report's seq whose chat lines staff see


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
    readonly_fields = (
        "reporter",
        "reported",
        "reason",
        "note",
        "game",
        "seq",
        "created_at",
        "chat_around",
    )
    actions = [_silence(hours) for hours in SILENCE_HOURS]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description="The game's chat around the seq")
    def chat_around(self, report: Report) -> str:
        lines = chat_lines_around(report)
        if not lines:
            return "No chat."
        return format_html_join(
            "\n",
            "<div>{} · seq {} · {}: {}</div>",
            ((at, seq, who, said) for at, seq, who, said in lines),
        )


def chat_lines_around(report: Report, around: int = CHAT_AROUND) -> list[tuple[str, int, str, str]]:
    """The game's chat lines (both channels) sent within ``around`` events of the report's
    seq, or the last ones before the report without a seq: (time, seq, author, text)."""
    if report.game_id is None:
        return []
    rows = ChatMessage.objects.filter(game_id=report.game_id).select_related("author")
    if report.seq is not None:
        rows = rows.filter(version__gte=report.seq - around, version__lte=report.seq + around)
    else:
        rows = rows.filter(created_at__lte=report.created_at)
    chosen = list(rows.order_by("-id")[: 2 * around + 1])
    return [
        (
            f"{row.created_at:%Y-%m-%d %H:%M:%S}",
            row.version,
            row.author.get_username(),
            row.text or f"({row.reaction})",
        )
        for row in reversed(chosen)
    ]


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


def _refuse_reserved_name(username: str, user: User | None) -> str:
    """A name staff give may not have a guest's, a deleted account's or a built-in bot's form
    (``reserved_name_refusal``), as on the API, unless it is the name such an account already
    has."""
    refusal = reserved_name_refusal(username)
    if refusal is None:
        return username
    own = user is not None and user.pk is not None and user.username == username
    generated = Guest.objects.filter(user=user).exists() or any(
        hasattr(user, kind) for kind in ("deleted_account", "bot")
    )
    # A person who registered a bot's form of name before it was reserved keeps it when staff
    # edit something else (renaming them is up to staff).
    if not (own and (generated or is_bot_name(username))):
        raise ValidationError(refusal.capitalize(), code="username_reserved")
    return username


class UserCreation(AdminUserCreationForm):
    def clean_username(self) -> str:
        return _refuse_reserved_name(super().clean_username(), None)


class UserChange(UserChangeForm):
    def clean_username(self) -> str:
        return _refuse_reserved_name(self.cleaned_data["username"], self.instance)


admin.site.unregister(User)


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    form = UserChange
    add_form = UserCreation
