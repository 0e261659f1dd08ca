"""The table chat through the API on PostgreSQL: the limits, reactions, who may write in which
channel, silences, blocks, mutes, and the bots' answers (after commit)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import chat_rules
from games.models import ChatMessage
from players.models import Block, ChatSilence
from service import chat
from tests.support.players import MakePlayer, Player

GAMES = "/api/v1/games/"


def new_game(host: Player, *others: Player, **settings: Any) -> str:
    answer = host.client.post(GAMES, {"max_players": 1 + len(others), **settings}, format="json")
    assert answer.status_code == 201, answer.json()
    game = str(answer.json()["id"])
    for other in others:
        joined = other.client.post(f"{GAMES}{game}/join/")
        assert joined.status_code == 200, joined.json()
    return game


def say(player: Player, game: str, **body: Any) -> Any:
    return player.client.post(f"{GAMES}{game}/chat/", body, format="json")


def listed(player: Player, game: str, after: int = 0) -> dict[str, Any]:
    answer = player.client.get(f"{GAMES}{game}/chat/?after={after}")
    assert answer.status_code == 200, answer.json()
    return dict(answer.json())


def test_a_seated_player_says_a_text_and_a_reaction_and_both_players_list_them(
    players: list[Player],
) -> None:
    ada, bob = players[:2]
    game = new_game(ada, bob)
    text = say(ada, game, text="  good luck!  ")
    reaction = say(bob, game, reaction="nice")
    assert text.status_code == 201 and reaction.status_code == 201, (text.json(), reaction.json())
    first = text.json()
    assert first["text"] == "good luck!" and first["reaction"] is None  # trimmed
    assert first["author"] == {"id": ada.id, "username": ada.user.username}
    assert first["seat"] == 0 and first["channel"] == "players"
    assert first["version"] == ada.client.get(f"{GAMES}{game}/").json()["version"]
    for viewer in (ada, bob):
        messages = listed(viewer, game)["messages"]
        assert [m["id"] for m in messages] == [first["id"], reaction.json()["id"]]
        assert messages[1]["reaction"] == "nice" and messages[1]["seat"] == 1
    assert listed(ada, game, after=first["id"])["messages"][0]["reaction"] == "nice"


@pytest.mark.parametrize(
    "body",
    [
        {"text": "x" * (chat_rules.TEXT.high + 1)},
        {"text": "   "},
        {"text": ""},
        {"text": "\u200b\u200b \u200d\ufeff"},  # zero-width spaces and joiners: nothing shown
        {"text": "\x07\x1b"},  # control characters only
        {"reaction": "gg"},
        {"reaction": "Nice!"},
        {"text": "hi", "reaction": "nice"},
        {},
        {"text": 5},
        {"text": "hi", "color": "red"},
    ],
)
def test_a_message_over_the_limits_or_outside_the_set_is_refused_invalid(
    players: list[Player], body: dict[str, Any]
) -> None:
    ada, bob = players[:2]
    game = new_game(ada, bob)
    answer = say(ada, game, **body)
    assert answer.status_code == 400, answer.json()
    assert answer.json()["code"] == "invalid"
    assert not ChatMessage.objects.exists()


def test_two_hundred_characters_are_taken(players: list[Player]) -> None:
    ada, bob = players[:2]
    game = new_game(ada, bob)
    assert say(ada, game, text="y" * chat_rules.TEXT.high).status_code == 201


def test_the_sixth_message_within_ten_seconds_is_refused_with_retry_after(
    players: list[Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    ada, bob = players[:2]
    game = new_game(ada, bob)
    start = timezone.now()
    now = [start]
    monkeypatch.setattr(chat, "clock", lambda: now[0])
    for second in range(chat_rules.RATE_MESSAGES):
        now[0] = start + timedelta(seconds=second)
        assert say(ada, game, reaction="uno").status_code == 201
    now[0] = start + timedelta(seconds=9)
    refused = say(ada, game, text="one more")
    assert refused.status_code == 429, refused.json()
    assert refused.json()["code"] == "chat_too_fast"
    assert refused["Retry-After"] == "1" and refused.json()["retry_after"] == 1
    assert say(bob, game, text="bob is not limited by ada").status_code == 201
    now[0] = start + timedelta(seconds=10, milliseconds=1)  # the first left the window
    assert say(ada, game, text="now again").status_code == 201
    assert ChatMessage.objects.filter(author=ada.user).count() == chat_rules.RATE_MESSAGES + 1


def test_a_spectator_is_refused_unless_the_host_enabled_spectator_chat(
    players: list[Player], outsider: Player
) -> None:
    ada, bob = players[:2]
    closed = new_game(ada, bob)
    refused = say(outsider, closed, text="hello")
    assert refused.status_code == 403 and refused.json()["code"] == "chat_not_allowed"

    open_game = new_game(ada, bob, spectator_chat=True)
    view = ada.client.get(f"{GAMES}{open_game}/").json()
    assert view["settings"]["spectator_chat"] is True
    spoken = say(outsider, open_game, text="go ada")
    assert spoken.status_code == 201, spoken.json()
    assert spoken.json()["channel"] == "spectators" and spoken.json()["seat"] is None
    said = say(ada, open_game, text="thanks?").json()
    # Seated players never see the spectators' channel; spectators see both.
    assert [m["id"] for m in listed(bob, open_game)["messages"]] == [said["id"]]
    assert [m["id"] for m in listed(outsider, open_game)["messages"]] == [
        spoken.json()["id"],
        said["id"],
    ]


def test_a_private_games_chat_is_not_found_for_others(
    players: list[Player], outsider: Player
) -> None:
    ada = players[0]
    answer = ada.client.post(GAMES, {"max_players": 2, "private": True}, format="json")
    game = answer.json()["id"]
    assert say(outsider, game, text="hi").status_code == 404
    assert outsider.client.get(f"{GAMES}{game}/chat/").status_code == 404


def test_a_silenced_player_gets_403_with_the_time(players: list[Player]) -> None:
    ada, bob = players[:2]
    game = new_game(ada, bob)
    until = timezone.now() + timedelta(hours=2)
    ChatSilence.objects.create(player=ada.user, until=until, reason="spam")
    for body in ({"text": "hello"}, {"reaction": "oops"}):
        refused = say(ada, game, **body)
        assert refused.status_code == 403, refused.json()
        assert refused.json()["code"] == "chat_silenced"
        assert refused.json()["until"] == until.isoformat()
    ChatSilence.objects.create(player=bob.user, until=timezone.now() - timedelta(seconds=1))
    assert say(bob, game, text="my silence is over").status_code == 201


def test_a_muted_game_lists_nothing_until_unmuted(players: list[Player]) -> None:
    ada, bob = players[:2]
    game = new_game(ada, bob)
    say(ada, game, text="one")
    muted = bob.client.post(f"{GAMES}{game}/chat/mute/")
    assert muted.status_code == 200 and muted.json() == {"muted": True}
    assert bob.client.post(f"{GAMES}{game}/chat/mute/").status_code == 200  # safe twice
    say(ada, game, text="two")
    assert listed(bob, game) == {"messages": [], "muted": True}
    assert len(listed(ada, game)["messages"]) == 2  # the mute is bob's own
    unmuted = bob.client.delete(f"{GAMES}{game}/chat/mute/")
    assert unmuted.json() == {"muted": False}
    assert [m["text"] for m in listed(bob, game)["messages"]] == ["one", "two"]


def test_players_kept_apart_do_not_see_each_others_messages_either_way(
    make_player: MakePlayer,
) -> None:
    ada, bob, cy = make_player("ada"), make_player("bob"), make_player("cy")
    game = new_game(ada, bob, cy)
    Block.objects.create(blocker=ada.user, blocked=bob.user)
    say(ada, game, text="from ada")
    say(bob, game, text="from bob")
    say(cy, game, text="from cy")
    assert [m["text"] for m in listed(ada, game)["messages"]] == ["from ada", "from cy"]
    assert [m["text"] for m in listed(bob, game)["messages"]] == ["from bob", "from cy"]
    assert len(listed(cy, game)["messages"]) == 3


def test_a_bot_answers_a_reaction_after_commit_deterministically(
    players: list[Player], django_capture_on_commit_callbacks: Any
) -> None:
    ada = players[0]
    created = ada.client.post(GAMES, {"max_players": 3, "bots": ["basic", "random"]}, format="json")
    assert created.status_code == 201, created.json()
    game = created.json()["id"]
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        sent = say(ada, game, reaction="well_played").json()
    assert callbacks  # the answer waited for the commit
    answers = list(ChatMessage.objects.filter(reply_to_id=sent["id"]))
    assert len(answers) == 1
    bots = [s for s in created.json()["seats"] if "bot" in s]
    expected = bots[sent["id"] % len(bots)]
    assert answers[0].seat == expected["seat"] and answers[0].author_id == expected["player"]["id"]
    assert answers[0].reaction == chat_rules.BOT_ANSWERS["well_played"]
    assert chat.bot_answer(sent["id"]) is None  # once a message
    shown = listed(ada, game)["messages"]
    assert [m["reaction"] for m in shown] == ["well_played", "nice"]

    with django_capture_on_commit_callbacks(execute=True):
        quiet = say(ada, game, reaction="hurry_up").json()
        texted = say(ada, game, text="nice").json()
    assert not ChatMessage.objects.filter(reply_to_id__in=[quiet["id"], texted["id"]]).exists()


def test_the_answer_is_not_written_inside_the_requests_transaction(players: list[Player]) -> None:
    ada = players[0]
    game = ada.client.post(GAMES, {"max_players": 2, "bots": ["basic"]}, format="json").json()
    say(ada, game["id"], reaction="nice")  # no commit in this test: no answer
    assert ChatMessage.objects.count() == 1
