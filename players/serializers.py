"""Serializer pieces shared by the players APIs (each API nests its own input and output)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.validators import UnicodeUsernameValidator
from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from players.selectors import PlayerStats

USERNAME_MAX_LENGTH = 150
PASSWORD_MAX_LENGTH = 4096


class StrictCharField(serializers.CharField):
    """A CharField that takes only JSON strings: DRF's own also turns numbers into text."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


def username_field(*, validate: bool) -> StrictCharField:
    """``validate``: apply Django's username rules (registration); logging in checks less."""
    return StrictCharField(
        max_length=USERNAME_MAX_LENGTH,
        validators=[UnicodeUsernameValidator()] if validate else [],
        help_text="Up to 150 letters, digits and @/./+/-/_." if validate else "",
    )


def password_field() -> StrictCharField:
    return StrictCharField(
        max_length=PASSWORD_MAX_LENGTH,
        trim_whitespace=False,
        write_only=True,
        style={"input_type": "password"},
    )


@extend_schema_serializer(component_name="PlayerStats")
class PlayerStatsSerializer(serializers.Serializer[PlayerStats]):
    games_played = serializers.IntegerField(help_text="Finished games sat in, won or lost.")
    games_won = serializers.IntegerField(help_text="Finished games won.")
    games_active = serializers.IntegerField(help_text="Games in progress sat in.")
