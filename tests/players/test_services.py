"""The players services called directly: the paths HTTP cannot easily reach."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db.models import QuerySet
from rest_framework.authtoken.models import Token

from players.models import AccessToken, Session
from players.selectors import PlayerStats, player_get, player_stats
from players.services import player_register, token_issue, token_revoke
from tests.support.players import PASSWORD, MakeUser
from unoservice.errors import DomainError

pytestmark = pytest.mark.django_db


def test_a_registration_that_loses_the_race_is_username_taken(
    make_player: MakeUser, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_player("alice")
    # As if the other registration committed between the check and the insert.
    monkeypatch.setattr(QuerySet, "exists", lambda self: False)

    with pytest.raises(DomainError) as refused:
        player_register(username="alice", password=PASSWORD)

    assert (refused.value.code, refused.value.status) == ("username_taken", 409)
    monkeypatch.undo()
    assert User.objects.count() == 1  # and the transaction is still usable


def test_register_checks_the_username_without_the_api() -> None:
    with pytest.raises(DomainError) as refused:
        player_register(username="no spaces", password=PASSWORD)

    assert refused.value.code == "invalid"
    assert refused.value.detail.startswith("username: ")


def test_register_normalizes_the_username() -> None:
    user = player_register(username="\uff41lice", password=PASSWORD)  # fullwidth a

    assert user.username == "alice"


def test_token_revoke_is_idempotent(player: User) -> None:
    pair = token_issue(username="alice", password=PASSWORD)
    access = AccessToken.objects.get(session=pair.session)

    token_revoke(user=player, auth=access)
    token_revoke(user=player, auth=access)
    Token.objects.create(user=player)
    token_revoke(user=player)
    token_revoke(user=player)

    assert not Token.objects.exists() and not AccessToken.objects.exists()
    assert Session.objects.get().ended_at is not None


def test_player_get_and_empty_stats(player: User) -> None:
    assert player_get(player_id=player.pk) == player
    assert player_stats(player=player) == PlayerStats(0, 0, 0)
    with pytest.raises(DomainError) as refused:
        player_get(player_id=player.pk + 1)
    assert (refused.value.code, refused.value.status) == ("not_found", 404)
