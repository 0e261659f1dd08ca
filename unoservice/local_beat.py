"""``make run``'s beat: with no broker, the periodic tasks of ``CELERY_BEAT_SCHEDULE`` run in the
server's own process, on a thread of their own, as ``celery beat`` and a worker run them beside
the real stack.

Without it a service with no broker acted on time only when someone came by: a turn that ran out
waited for a read of its game, a tournament's heads-up was never sent (its start told everyone),
a tournament started when someone looked at it, and turn reminders went out when their player
opened the inbox. Now a seat out of time is acted for within ``UNO_SWEEP_INTERVAL`` seconds of its
deadline, and the rest comes when it is due, as on the real stack.

Each task runs eagerly (``Task.apply``), one at a time: the sweeps are the same code the worker
runs, safe to run beside requests (each takes its game's or tournament's lock). A task that fails
is logged and runs again at its next time; the thread's database connections are closed after
each task, so an idle server holds none.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from datetime import timedelta
from typing import Any

log = logging.getLogger(__name__)

Run = Callable[[str], None]


def intervals(schedule: Mapping[str, Mapping[str, Any]]) -> dict[str, float]:
    """Each scheduled task's name and its period in seconds (numbers or timedeltas, the only
    schedules the service's beat uses)."""
    periods: dict[str, float] = {}
    for entry in schedule.values():
        every = entry["schedule"]
        seconds = every.total_seconds() if isinstance(every, timedelta) else float(every)
        if seconds <= 0:
            raise ValueError(f"the task {entry['task']} has no period: {every!r}")
        periods[entry["task"]] = seconds
    return periods


def run_task(name: str) -> None:
    """The registered Celery task ``name``, run in this thread as an eager worker runs it."""
    from django.db import connections

    from unoservice.celery import app

    try:
        app.tasks[name].apply(throw=True)
    finally:
        connections.close_all()


class LocalBeat:
    """A thread that runs each task of ``schedule`` at once, then every period, until ``stop``."""

    def __init__(self, schedule: Mapping[str, Mapping[str, Any]], run: Run = run_task) -> None:
        self.periods = intervals(schedule)
        self._run = run
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="local-beat", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        """Ask the thread to end and wait for the task in progress (up to ``timeout`` seconds)."""
        self._stopping.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

    def _loop(self) -> None:
        if not self.periods:
            return
        due = dict.fromkeys(self.periods, time.monotonic())
        while not self._stopping.is_set():
            now = time.monotonic()
            for name, at in due.items():
                if at > now or self._stopping.is_set():
                    continue
                try:
                    self._run(name)
                except Exception:  # the next round tries again; the server goes on
                    log.exception("the periodic task %s failed", name)
                due[name] = max(at + self.periods[name], time.monotonic())
            self._stopping.wait(max(0.0, min(due.values()) - time.monotonic()))


def start_if_no_broker() -> LocalBeat | None:
    """The beat of a process whose tasks run eagerly (no ``CELERY_BROKER_URL``), started; None
    when a broker is configured (its own beat and workers run the tasks)."""
    import django
    from django.conf import settings

    from unoservice.celery import app  # first: it names the settings module, as a worker's does

    django.setup()

    if not app.conf.task_always_eager:
        return None
    app.loader.import_default_modules()  # the tasks' modules (a worker imports them at start)
    beat = LocalBeat(settings.CELERY_BEAT_SCHEDULE)
    beat.start()
    return beat
