"""Web client benchmark: what its pages weigh, and how soon they show what they are for.

Run with ``.venv/bin/python bench/webclient.py`` (``--runs``). It makes a database of its own
(``UNO_BENCH_DB``, by default ``unoservice_web_bench``), starts the Procfile's web process
(gunicorn with uvicorn workers) on loopback (``UNO_BENCH_PORT``) with production settings (debug
off: WhiteNoise serves ``web/app/`` as deployed), and drives Debian's Chromium through Playwright
(headless, the flags of tests/web; Playwright never downloads a browser).

Three pages, each of a signed-in player: the lobby (``#/``), the table of a game in play against
a bot (``#/game/<id>``) and the replay viewer of a finished game (``#/replay/<id>``). For each:

- weight, on a cold load: the bodies of the scripts and stylesheets, and of everything loaded,
  uncompressed, and as sent (the encoded bodies: compressed where the server compressed them);
- time to show: from the start of the navigation (``performance.timeOrigin``) until the page
  shows what it is for (the lobby's Create game button, the first card of the player's hand,
  the replay's first position drawn), read in the page at the first animation frame that shows
  it; cold (a new browser context: empty cache, no service worker) and warm (the same page
  loaded again), the median and the slowest of ``--runs``.

The tests assert only the table page's weight (tests/web/test_weight.py): times depend on the
machine. It stops by itself: every wait is bounded, and the server is stopped at the end.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")

from playwright.sync_api import (  # noqa: E402
    Browser,
    BrowserContext,
    Page,
    Response,
    sync_playwright,
)
from playwright.sync_api import Error as PlaywrightError  # noqa: E402

from bench import harness  # noqa: E402
from games.engine.bots import choose  # noqa: E402

DB_NAME = os.environ.get("UNO_BENCH_DB", "unoservice_web_bench")
PORT = int(os.environ.get("UNO_BENCH_PORT", "8767"))
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PASSWORD = "correct-horse-battery-9"
WAIT_MS = 30_000  # the most a page may take to show (a bound, not an expectation)
CODE = ("script", "stylesheet")

# What each page is for, as a predicate on the document: true once it shows it.
READY = {
    "lobby": "[...document.querySelectorAll('button')].some((b) => b.textContent.trim() === "
    "'Create game')",
    "table": "document.querySelector('[data-region=hand] [data-card]') !== null",
    "replay": "document.querySelector('.replay[data-at]') !== null",
}


@dataclass
class Weight:
    code: int = 0  # scripts and stylesheets, uncompressed
    code_sent: int = 0
    everything: int = 0
    everything_sent: int = 0
    files: list[str] = field(default_factory=list)


@dataclass
class Figures:
    weight: Weight
    cold_ms: list[float]
    warm_ms: list[float]


def environment() -> dict[str, str]:
    return harness.service_env(
        f"{harness.SERVER}/{DB_NAME}",
        **harness.LIMITS_OFF,
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        UNO_BOT_DELAY="0",
        LOG_LEVEL="WARNING",
        WEB_CONCURRENCY="2",
    )


def healthy() -> bool:
    return harness.answers(PORT, "/healthz")


def start_server() -> subprocess.Popen[bytes]:
    env = environment()
    env.pop("CELERY_BROKER_URL", None)  # tasks and bots in-process, as `make run` without one
    argv = harness.gunicorn_argv(PORT, config="unoservice.gunicorn_asgi")
    server = harness.spawn(argv, env, subprocess.DEVNULL)
    try:
        harness.wait_until(
            lambda: harness.answers(PORT, "/healthz"), 60, "the server did not start"
        )
    except RuntimeError:
        harness.stop(server)
        raise
    return server


def setting_up(client: harness.Client) -> tuple[str, str]:
    """A player (over the API), with a game in play against a bot and a finished one."""
    body = {"username": "bencher", "password": PASSWORD}
    assert client.call("POST", "/api/v1/players/", body=body)[0] == 201
    status, answer = client.call("POST", "/api/v1/auth/token/", body=body)
    assert status == 200, answer
    token = str(answer["token"])
    create = {"max_players": 2, "bots": ["basic"], "target_score": 500}
    status, playing = client.call("POST", "/api/v1/games/", token, create)
    assert status == 201, playing
    status, finished = client.call("POST", "/api/v1/games/", token, {**create, "target_score": 1})
    assert status == 201, finished
    rng = random.Random(7)
    path = f"/api/v1/games/{finished['id']}/"
    view = finished
    for _ in range(5000):
        status, view = client.call("GET", path, token)
        if view["status"] != "active":
            break
        legal = view["you"]["legal_actions"]
        if legal:  # else a bot is moving, in the server, after our last move
            action = {**choose(rng, legal), "expected_version": view["version"]}
            status, answer = client.call("POST", f"{path}actions/", token, action)
            # 409: the bots moved since we read; 422: what we read had changed meanwhile.
            assert status in (200, 409, 422), answer
    assert view["status"] == "finished", view["status"]
    return str(playing["id"]), str(finished["id"])


def signed_in(browser: Browser) -> Any:
    """The storage of a browser that signed in through the page (the client keeps the token)."""
    context = browser.new_context(base_url=f"http://{harness.HOST}:{PORT}")
    page = context.new_page()
    page.goto("/#/login")
    page.get_by_label("Username").fill("bencher")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("button", name="Sign out").wait_for(timeout=WAIT_MS)
    state = context.storage_state()
    context.close()
    return state


def shown_after(page: Page, route: str, ready: str) -> float:
    """Load ``route`` afresh; milliseconds from the navigation's start until ``ready`` holds."""
    page.goto("about:blank")
    page.goto(f"/{route}", wait_until="commit")
    try:
        handle = page.wait_for_function(
            f"() => ({ready}) && performance.now()", polling="raf", timeout=WAIT_MS
        )
    except PlaywrightError as error:
        raise RuntimeError(f"{route} did not show within {WAIT_MS} ms: {page.url}") from error
    return float(handle.json_value())


def weigh(context: BrowserContext, route: str, ready: str) -> tuple[Weight, float]:
    weight = Weight()
    responses: list[Response] = []
    page = context.new_page()

    def keep(response: Response) -> None:
        responses.append(response)

    page.on("response", keep)
    took = shown_after(page, route, ready)
    for response in responses:
        if response.url.startswith("about:") or response.status != 200:
            continue
        kind = response.request.resource_type
        if kind in ("eventsource", "fetch", "xhr"):
            continue  # the API's answers and the open stream: data, not the page
        size = len(response.body())
        sent = response.request.sizes()["responseBodySize"]
        weight.everything += size
        weight.everything_sent += sent
        if kind in CODE:
            weight.code += size
            weight.code_sent += sent
            weight.files.append(f"{response.url.split('/', 3)[-1]} {size}")
    page.close()
    return weight, took


def measure(browser: Browser, state: Any, route: str, ready: str, runs: int) -> Figures:
    cold: list[float] = []
    warm: list[float] = []
    weight = Weight()
    for run in range(runs):
        context = browser.new_context(base_url=f"http://{harness.HOST}:{PORT}", storage_state=state)
        measured, took = weigh(context, route, ready)
        if run == 0:
            weight = measured
        cold.append(took)
        page = context.new_page()
        warm.append(shown_after(page, route, ready))
        context.close()
    return Figures(weight, cold, warm)


def kb(size: int) -> str:
    return f"{size / 1000:.1f} KB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="loads of each page, cold and warm")
    args = parser.parse_args()

    harness.prepare_database(DB_NAME, environment())
    server = start_server()
    try:
        client = harness.Client(PORT)
        playing, finished = setting_up(client)
        client.close()
        routes = {"lobby": "#/", "table": f"#/game/{playing}", "replay": f"#/replay/{finished}"}
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                state = signed_in(browser)
                started = time.monotonic()
                figures = {
                    name: measure(browser, state, route, READY[name], args.runs)
                    for name, route in routes.items()
                }
            finally:
                browser.close()
        print(
            f"{args.runs} loads of each page, cold and warm, Chromium headless, "
            f"{os.cpu_count()} cores, {time.monotonic() - started:.0f} s, load average "
            f"{os.getloadavg()[0]:.1f} at the end\n"
        )
        print(
            "| page | JS + CSS | as sent | everything | as sent | cold: median | slowest "
            "| warm: median | slowest |"
        )
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for name, got in figures.items():
            w = got.weight
            print(
                f"| {name} | {kb(w.code)} | {kb(w.code_sent)} | {kb(w.everything)} "
                f"| {kb(w.everything_sent)} | {statistics.median(got.cold_ms):.0f} ms "
                f"| {max(got.cold_ms):.0f} ms | {statistics.median(got.warm_ms):.0f} ms "
                f"| {max(got.warm_ms):.0f} ms |"
            )
        for name, got in figures.items():
            print(f"\nthe {name} page's scripts and stylesheets (bytes, uncompressed):")
            for line in got.weight.files:
                print(f"  {line}")
    finally:
        harness.stop(server)


if __name__ == "__main__":
    main()
