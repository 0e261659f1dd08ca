"""The hub's reads of the news on its listening connection, driven on an event loop of the test's
own against the real PostgreSQL: what arrives on that connection in one go is all handled."""

from __future__ import annotations

import asyncio
import os
import select
import socket
import threading
import time
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.db import connection

from games import engine
from games.models import Game
from streams import hub
from tests.support.players import player_for
from tests.support.table import Table, db_state, start_table

pytestmark = pytest.mark.django_db(transaction=True)


def play_one(table: Table, versions: list[int]) -> None:
    """One legal action, committed from a thread of its own (its own database connection); the
    game's version after it."""
    try:
        state = db_state(table.id)
        table.post(state.actor, engine.legal_actions(state, state.actor)[0])
        versions.append(version_of(table))
    finally:
        connection.close()


def version_of(table: Table) -> int:
    return Game.objects.get(pk=table.id).version


async def until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "not reached in time"
        await asyncio.sleep(0.01)


def wait_for_bytes(fd: int, wanted: bytes, seconds: float = 10.0) -> None:
    """Block until ``wanted`` is among the bytes waiting on the socket, reading none of them."""
    peek = socket.socket(fileno=os.dup(fd))
    try:
        deadline = time.monotonic() + seconds
        while wanted not in peek.recv(1 << 16, socket.MSG_PEEK):
            assert time.monotonic() < deadline, "the bytes did not come"
            select.select([], [], [], 0.01)
    finally:
        peek.close()  # the copy: the connection keeps its own


def test_a_notice_that_arrives_behind_a_reads_answer_is_read_at_once() -> None:
    """A read's answer and the notice of a write that committed meanwhile can come off the
    socket together: taking the answer parses the notice, and the socket will not say so again,
    so the hub must look for notices after every answer it takes."""
    users = [User.objects.create_user(name, password=None) for name in ("ada", "bob")]
    table = start_table([player_for(user) for user in users], seed=11)
    start = version_of(table)

    async def scenario() -> None:
        processes = hub.Hub(asyncio.get_running_loop())
        game_log, watcher = processes.watch(table.id, users[0].pk, start)
        try:
            await until(lambda: game_log.summary is not None and processes.reading is None)
            pgconn = processes.pgconn
            assert pgconn is not None
            processes.news.add(table.id)
            processes._send_read()  # a read in flight, and, with the loop held, a write
            assert processes.reading is not None
            versions: list[int] = []
            writer = threading.Thread(target=play_one, args=(table, versions))
            writer.start()
            writer.join()
            # Its notice is sent once the read is answered: both wait on the socket now.
            wait_for_bytes(pgconn.socket, f"{hub.CHANNEL}\0{table.id}".encode())
            (after,) = versions
            assert after > start
            await until(lambda: watcher.cursor == after, seconds=5)
        finally:
            assert processes.listener is not None
            processes.listener.cancel()
            await asyncio.gather(processes.listener, return_exceptions=True)
            processes.executor.shutdown()

    asyncio.run(scenario())
