"""A player deletes their account (``POST /api/v1/players/me/delete/``).

What a person asks of a game service when they leave it, and what the app stores require of an
app that makes accounts: the account and what identifies the person go, at once, from the app.
The user row itself stays, because the games it sat in keep their seats and their event logs
(a replay names its seats; the other players' records stand):

- its games: the waiting ones it made are abandoned (their other players are told:
  ``game_abandoned``) and it leaves the others; in every running
  game its seat resigns now (a forfeit, or a bot takes the seat where the host asked for
  that), so nobody waits days for its clock; a game left with one player ends;
- its open challenges are cancelled or declined, and it withdraws from tournaments not over;
- what is its own goes: sessions and tokens, webhooks, Web Push subscriptions and the kinds
  pushed, notifications, followed games, vacations, blocks either way, chat silences and its
  chat messages;
- the row is renamed ``deleted-`` and eight letters and digits (in every game's roster too),
  loses its password, e-mail and names and is made inactive; a ``DeletedAccount`` row marks it:
  its profile is not found, it is off the leaderboard, and the name cannot be chosen.

Reports about the account stay with staff. Everything runs in one transaction, the player's row
locked first (``players.locks``): a call of the player's racing it waits, and then finds no
session. Then, before any change, every lock the deletion's writes will need, in the order every
game's write takes them: the rows of the player's games by id, then the notification locks of
the players those writes notify. A game's write takes its row, then its players'; a deletion
that took them game by game held the players of its first game while it waited for the row of
the next, whose write (a move of the other seat, notifying the deleted player) waited for them:
a deadlock, answered 503 ``conflict_retry``.
"""

from __future__ import annotations

import contextlib

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from rest_framework.authtoken.models import Token

from games.models import (
    Challenge,
    ChallengeStatus,
    ChatMessage,
    Entrant,
    Game,
    GameStatus,
    Seat,
    SeatStatus,
    TournamentStatus,
)
from notifications import outbox
from notifications.models import Notification, PushChoice, PushSubscription, Watching, Webhook
from notifications.services import rename_in_notifications
from players.locks import lock_notified, lock_player
from players.models import (
    DELETED_PREFIX,
    AccountMail,
    Block,
    ChatSilence,
    DeletedAccount,
    Guest,
    Session,
    Vacation,
)
from players.services import generated_name, is_guest, rename_in_rosters
from service.challenges import challenge_cancel, challenge_decline
from service.lobby import game_leave
from service.play import game_resign
from service.tournaments import tournament_withdraw
from service.unit_of_work import game_write
from unoservice.errors import DomainError


def account_delete(*, user: User, password: str) -> None:
    """Delete ``user``'s account (module docstring). ``password`` must be theirs; a guest, who
    has none, sends anything. A wrong one is ``invalid_credentials`` and changes nothing.

    An account deleted while this call waited for its lock (a second tap, a second device: both
    passed the sign-in before the first deleted it) is what the call asked for: it returns, as
    the first did. Its password is gone with it, so there is nothing to check it against, and
    the call changes nothing."""
    with transaction.atomic():
        lock_player(user.pk)
        user = User.objects.get(pk=user.pk)
        if hasattr(user, "deleted_account"):
            return
        if not is_guest(user) and not user.check_password(password):
            raise DomainError("invalid_credentials", "The password is wrong.")
        _lock_ahead(user)
        sat_at = list(Seat.objects.filter(player=user).values_list("game_id", flat=True))
        leave_waiting_games(user)
        _resign_running_games(user)
        _close_challenges(user)
        _withdraw_from_tournaments(user)
        _forget(user)
        _rename(user)
        rename_in_notifications(user, sat_at)


def _lock_ahead(player: User) -> None:
    """The rows of every game ``player`` sits at (the waiting and running ones it leaves, the
    ended ones whose rosters it is renamed in) by id, then the notification locks of everyone its
    leaving notifies: the seats of its waiting and running games and the other sides of its open
    challenges (module docstring)."""
    seated = Seat.objects.filter(player=player).values("game_id")
    games = Game.objects.select_for_update().filter(pk__in=seated).order_by("pk")
    notified = {player.pk}
    for status, roster in games.values_list("status", "roster"):
        if status in (GameStatus.WAITING, GameStatus.ACTIVE):
            notified.update(entry["id"] for entry in roster if entry.get("id") is not None)
    challenges = Challenge.objects.filter(
        Q(challenger=player) | Q(challenged=player), status=ChallengeStatus.OPEN
    )
    for sides in challenges.values_list("challenger_id", "challenged_id"):
        notified.update(sides)
    lock_notified(notified)


def leave_waiting_games(player: User) -> None:
    """``player`` leaves every waiting game: the ones it made are abandoned (a game of its own
    with bots is of no use to anyone), it leaves the others. The players seated at one it
    abandons are told (``game_abandoned``): they waited on for a game that would never start."""
    waiting = Seat.objects.filter(player=player, game__status=GameStatus.WAITING)
    for game_id in list(waiting.order_by("game_id").values_list("game_id", flat=True)):
        if Game.objects.filter(pk=game_id, created_by=player).exists():
            with game_write(game_id) as write:
                if write.game.status == GameStatus.WAITING:
                    write.game.status = GameStatus.ABANDONED
                    write.game.save(update_fields=["status", "updated_at"])
                    write.record(outbox.Abandoned(player.pk))
        else:
            game_leave(player=player, game_id=game_id)


def _resign_running_games(player: User) -> None:
    seats = Seat.objects.filter(
        player=player, status=SeatStatus.PLAYING, game__status=GameStatus.ACTIVE
    )
    for game_id in list(seats.order_by("game_id").values_list("game_id", flat=True)):
        # A bot plays the seat already (a takeover): it plays on; the game ended meanwhile.
        with contextlib.suppress(DomainError):
            game_resign(player=player, game_id=game_id)


def _close_challenges(player: User) -> None:
    open_ones = Challenge.objects.filter(
        Q(challenger=player) | Q(challenged=player), status=ChallengeStatus.OPEN
    )
    for challenge in list(open_ones.order_by("pk")):
        close = challenge_cancel if challenge.challenger_id == player.pk else challenge_decline
        with contextlib.suppress(DomainError):  # expired meanwhile
            close(player=player, challenge_id=str(challenge.pk))


def _withdraw_from_tournaments(player: User) -> None:
    entered = Entrant.objects.filter(player=player, withdrawn_at__isnull=True).exclude(
        tournament__status=TournamentStatus.FINISHED
    )
    for tournament_id in list(entered.values_list("tournament_id", flat=True)):
        with contextlib.suppress(DomainError):  # finished meanwhile
            tournament_withdraw(player=player, tournament_id=str(tournament_id))


def _forget(player: User) -> None:
    """What is the person's own, gone (their sessions' tokens with them)."""
    Session.objects.filter(user=player).delete()
    AccountMail.objects.filter(player=player).delete()  # its address and its links
    Token.objects.filter(user=player).delete()
    Webhook.objects.filter(player=player).delete()
    PushSubscription.objects.filter(player=player).delete()
    PushChoice.objects.filter(player=player).delete()
    Notification.objects.filter(player=player).delete()
    Watching.objects.filter(player=player).delete()
    Vacation.objects.filter(player=player).delete()
    Block.objects.filter(Q(blocker=player) | Q(blocked=player)).delete()
    ChatSilence.objects.filter(player=player).delete()
    ChatMessage.objects.filter(author=player).delete()
    Guest.objects.filter(user=player).delete()


def _rename(player: User) -> None:
    for _ in range(5):  # a name already taken (about one in 2**41 per deleted account): again
        name = generated_name(DELETED_PREFIX)
        if not User.objects.filter(username__iexact=name).exists():
            break
    player.username = name
    player.set_unusable_password()
    player.email = player.first_name = player.last_name = ""
    player.is_active = False
    player.save(
        update_fields=["username", "password", "email", "first_name", "last_name", "is_active"]
    )
    DeletedAccount.objects.create(user=player)
    rename_in_rosters(player)
