"""A program that plays a bot account of the UNO service (docs/bot-api.md), with httpx and
httpx-sse: ``python examples/bot.py --server http://localhost:8000 --token uat_… [--refresh …]``.
The player stream's first message (``snapshot``) lists the account's games and open challenges;
it accepts each challenge received and follows each game on its stream. Whenever a game moves it
reads the view and sends one of ``you.legal_actions`` as it is, with ``expected_version`` and an
``Idempotency-Key``. A dropped stream is opened again with ``Last-Event-ID``: nothing is missed."""

import argparse
import asyncio
import logging
from collections.abc import Generator
from typing import Any

import httpx
from httpx_sse import aconnect_sse

log = logging.getLogger("bot")
RETRY_SECONDS = 1.0  # between reconnections
DROPPED = (httpx.TransportError, httpx.HTTPStatusError)  # a connection lost, a server away
TIMEOUT = httpx.Timeout(30.0, read=45.0)  # a quiet stream sends a keep-alive every 15 s
# Which listed action to send (each entry is complete, so any may be sent as it is): a card
# first, then the others; catching or challenging last.
RANK = {name: rank for rank, name in enumerate(["play", "uno", "color", "accept", "draw", "pass"])}


class TokenAuth(httpx.Auth):
    """``Authorization: Token <access>``; on a 401, trades the refresh token for a new pair."""

    def __init__(self, access: str, refresh: str | None) -> None:
        self.access, self.refresh = access, refresh  # the refresh token may renew the access

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        request.headers["Authorization"] = f"Token {self.access}"
        response = yield request
        if response.status_code == 401 and self.refresh:
            url = request.url.copy_with(path="/api/v1/auth/refresh/", query=None)
            pair = yield httpx.Request("POST", url, json={"refresh": self.refresh})
            if pair.status_code == 200:
                pair.read()
                self.access, self.refresh = (pair.json()[key] for key in ("access", "refresh"))
                request.headers["Authorization"] = f"Token {self.access}"
                yield request


class Bot:
    def __init__(self, client: httpx.AsyncClient, games: int | None) -> None:
        self.client, self.left = client, games  # games to finish before stopping (None: never)
        self.playing: dict[str, asyncio.Task[None]] = {}
        self.done = asyncio.Event()

    def stream(self, of: str, last: object) -> Any:  # the SSE stream of ``of``, after ``last``
        headers = {"Last-Event-ID": str(last)} if last is not None else {}
        return aconnect_sse(self.client, "GET", f"/api/v1/{of}/stream/", headers=headers)

    async def player_stream(self) -> None:
        last: str | None = None  # the id of the last message: Last-Event-ID on reconnecting
        while True:
            try:
                async with self.stream("players/me", last) as source:
                    source.response.raise_for_status()
                    async for message in source.aiter_sse():
                        if not message.data:  # a retry hint
                            continue
                        last, body = message.id, message.json()
                        if message.event == "stream_ended":  # the token's sign-in ended
                            log.error("signed out: %s", body["detail"])
                            self.done.set()
                            return
                        if message.event == "snapshot":
                            log.info("snapshot: %s", body)
                            for game in body["games"]:
                                self.follow(game["id"])
                            for challenge in body["challenges"]["received"]:
                                await self.accept(challenge["id"])
                        elif body["kind"] == "challenge":  # a challenge to this account
                            await self.accept(body["data"]["challenge"])
                        elif body["game"]:  # your_turn, invited, game_started...
                            self.follow(body["game"])
            except DROPPED as exc:
                log.info("player stream dropped (%s); Last-Event-ID %s", exc, last)
            await asyncio.sleep(RETRY_SECONDS)

    async def accept(self, challenge: str) -> None:  # every challenge: play anyone, any rules
        answer = await self.client.post(f"/api/v1/challenges/{challenge}/accept/")
        if answer.status_code == 200:
            self.follow(answer.json()["game"])

    def follow(self, game: str) -> None:
        if game not in self.playing:
            self.playing[game] = asyncio.create_task(self.play(game))

    async def play(self, game: str) -> None:
        last: int | None = None  # the seq of the last event seen: Last-Event-ID on reconnecting
        while True:
            try:
                view = await self.act(game)  # what happened while no stream was open
                if view["status"] in ("finished", "abandoned"):
                    break
                async with self.stream(f"games/{game}", last or view["version"]) as source:
                    source.response.raise_for_status()
                    async for message in source.aiter_sse():
                        if message.event == "stream_ended":  # the game ended, or the sign-in
                            break  # the view read next says which
                        if message.event != "chat" and message.data:  # not a retry hint
                            last = int(message.id)
                            await self.act(game)
            except DROPPED as exc:
                log.info("game %s: stream dropped (%s)", game, exc)
            log.info("game %s: stream ended, Last-Event-ID %s", game, last)
            await asyncio.sleep(RETRY_SECONDS)
        log.info("game %s %s", game, view["status"])
        self.left = None if self.left is None else self.left - 1
        if self.left == 0:
            self.done.set()

    async def act(self, game: str) -> dict[str, Any]:
        """Read the game view, send one listed action if there is any; answer the view read."""
        answer = await self.client.get(f"/api/v1/games/{game}/")
        view: dict[str, Any] = answer.raise_for_status().json()
        you = view.get("you") or {}
        if view["status"] != "active" or not you.get("legal_actions"):
            return view
        chosen = min(you["legal_actions"], key=lambda entry: RANK.get(entry["action"], len(RANK)))
        action = {**chosen, "expected_version": view["version"]}
        key = f"{game}:{view['version']}"  # the same move at the same version: one key, once
        answer = await self.client.post(
            f"/api/v1/games/{game}/actions/", json=action, headers={"Idempotency-Key": key}
        )
        log.info("game %s: %s -> %s", game, action, answer.status_code)
        if answer.status_code != 200:  # 409: the game moved meanwhile, and its stream says so
            log.warning("game %s: refused %s", game, answer.text)
        return view


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="http://localhost:8000")
    parser.add_argument("--token", required=True, help="an access token of the bot account")
    parser.add_argument("--refresh", help="its refresh token, to renew the access token")
    parser.add_argument("--games", type=int, help="stop after finishing this many games")
    args = parser.parse_args()
    logging.basicConfig(format="%(asctime)s %(message)s")
    log.setLevel(logging.INFO)
    auth = TokenAuth(args.token, args.refresh)
    async with httpx.AsyncClient(base_url=args.server, auth=auth, timeout=TIMEOUT) as client:
        bot = Bot(client, args.games)
        player = asyncio.create_task(bot.player_stream())  # it starts the games' tasks
        await bot.done.wait()
        player.cancel()


if __name__ == "__main__":
    asyncio.run(main())
