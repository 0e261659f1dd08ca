"""Past one machine, on loopback: a streaming replica, nginx before two web nodes, two Celery
workers and one beat (issue 28, part 2), and what one and two web nodes get through.

The parts are real: the replica is a ``pg_basebackup -R`` copy of the machine's PostgreSQL cluster,
started on another port as the ``postgres`` user; the web nodes are the Procfile's web process
(gunicorn, uvicorn workers) on two ports, each a separate process group; nginx runs the deployed
``docker/nginx.conf`` with both nodes in its upstream (rewritten as ``bench.frontend`` does). The
cluster test (``tests/cluster``) runs the same stack over the test database.

    make bench-cluster        # BENCH_ARGS='--seconds 20 --clients 8'

It measures actions/s and reads/s through nginx with one node and with two, and the replica's
share of the reads (``pg_stat_database`` transactions of the database on each server: every
query of the service runs in autocommit, so a transaction is a query).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import frontend
from bench.harness import (
    API,
    BIN,
    HOST,
    LIMITS_OFF,
    SERVER,
    Client,
    Mirror,
    NoAnswer,
    answers,
    free_port,
    prepare_database,
    service_env,
    spawn,
    stop,
    wait_until,
)
from bench.service import new_game, play_one

PRIMARY_PORT = 5432
PRIMARY = f"host={HOST} port={PRIMARY_PORT} user=postgres dbname=postgres"
# The cluster's own Redis database (broker), never another's.
REDIS_URL = os.environ.get("UNO_CLUSTER_REDIS_URL", "redis://127.0.0.1:6379/12")
DB_NAME = "uno_cluster"
HBA_LINE = "host replication all 127.0.0.1/32 trust"
# Settings a hot standby must hold at least as high as its primary's.
STANDBY_AT_LEAST = (
    "max_connections",
    "max_worker_processes",
    "max_wal_senders",
    "max_prepared_transactions",
    "max_locks_per_transaction",
)
START_WITHIN = 60.0  # seconds: a bound for a loaded machine, not an expected duration


def pg_bin(program: str) -> str:
    """``program`` of the newest PostgreSQL installed (Debian: /usr/lib/postgresql/N/bin)."""
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name), reverse=True
    )
    for directory in versions:
        if (directory / program).exists():
            return str(directory / program)
    found = shutil.which(program)
    if found is None:
        raise RuntimeError(f"no PostgreSQL {program} on this machine")
    return found


def primary_query(sql: str, dsn: str = PRIMARY) -> list[tuple[Any, ...]]:
    """The rows ``sql`` answers on the server at ``dsn`` (the primary by default), autocommit."""
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        cursor = conn.execute(sql.encode())
        return list(cursor.fetchall()) if cursor.description else []


def ensure_replication_allowed() -> None:
    """The primary lets a replica on loopback stream from it: a ``host replication`` line in
    pg_hba.conf (added once, then the configuration reloaded) and WAL senders. Idempotent: a
    fresh machine gets what this one has."""
    (wal_level,) = primary_query("SHOW wal_level")[0]
    (senders,) = primary_query("SHOW max_wal_senders")[0]
    if wal_level not in ("replica", "logical") or int(senders) < 2:
        raise RuntimeError(
            f"the primary cannot stream (wal_level={wal_level}, max_wal_senders={senders})"
        )
    hba = Path(primary_query("SHOW hba_file")[0][0])
    lines = hba.read_text().splitlines()
    allowed = re.compile(r"^\s*host\s+replication\s+(all|postgres)\s+127\.0\.0\.1/32\s+trust\b")
    if not any(allowed.match(line) for line in lines):
        with hba.open("a") as out:
            out.write("\n# A streaming replica on loopback (bench/cluster.py, tests/cluster).\n")
            out.write(HBA_LINE + "\n")
        primary_query("SELECT pg_reload_conf()")


def _as_postgres() -> dict[str, Any]:
    """Popen arguments that run a server program as the ``postgres`` user (we may be root)."""
    return (
        {"user": "postgres", "group": "postgres", "extra_groups": []} if os.geteuid() == 0 else {}
    )


@dataclass
class Replica:
    port: int
    process: subprocess.Popen[bytes]
    workdir: Path

    def url(self, database: str) -> str:
        return f"postgres://postgres@{HOST}:{self.port}/{database}"

    @property
    def dsn(self) -> str:
        return f"host={HOST} port={self.port} user=postgres dbname=postgres"

    def query(self, sql: str) -> list[tuple[Any, ...]]:
        return primary_query(sql, self.dsn)

    def pause(self) -> None:
        """Replay stops: the replica keeps receiving WAL but shows nothing newer."""
        self.query("SELECT pg_wal_replay_pause()")
        wait_until(
            lambda: self.query("SELECT pg_get_wal_replay_pause_state()")[0][0] == "paused",
            START_WITHIN,
            "the replica's replay did not pause",
        )

    def resume(self) -> None:
        self.query("SELECT pg_wal_replay_resume()")

    def catch_up(self, seconds: float = START_WITHIN) -> None:
        """Await the replica replaying everything the primary has written until now."""
        (target,) = primary_query("SELECT pg_current_wal_lsn()::text")[0]
        wait_until(
            lambda: bool(
                self.query(f"SELECT pg_last_wal_replay_lsn() >= '{target}'::pg_lsn")[0][0]
            ),
            seconds,
            "the replica did not catch up",
        )


@contextlib.contextmanager
def running_replica() -> Iterator[Replica]:
    """A hot standby of the primary cluster on a free port; stopped and removed however the
    block ends."""
    ensure_replication_allowed()
    workdir = Path(tempfile.mkdtemp(prefix="uno-replica-"))
    data = workdir / "data"
    process: subprocess.Popen[bytes] | None = None
    try:
        if os.geteuid() == 0:
            shutil.chown(workdir, "postgres", "postgres")
        workdir.chmod(0o700)
        subprocess.run(
            [
                pg_bin("pg_basebackup"),
                *("-h", HOST, "-p", str(PRIMARY_PORT), "-U", "postgres", "-D", str(data)),
                *("-R", "-X", "stream", "--checkpoint=fast", "--no-sync"),
            ],
            check=True,
            capture_output=True,
            timeout=600,
            **_as_postgres(),
        )
        port = free_port()
        floors = {name: primary_query(f"SHOW {name}")[0][0] for name in STANDBY_AT_LEAST}
        conf = [
            f"port = {port}",
            f"listen_addresses = '{HOST}'",
            f"unix_socket_directories = '{workdir}'",
            "hot_standby = on",
            "fsync = off",
            "shared_buffers = 32MB",
            *(f"{name} = {value}" for name, value in floors.items()),
        ]
        (data / "postgresql.conf").write_text("\n".join(conf) + "\n")
        (data / "pg_hba.conf").write_text("local all all trust\nhost all all 127.0.0.1/32 trust\n")
        (data / "pg_ident.conf").write_text("")
        for name in ("postgresql.conf", "pg_hba.conf", "pg_ident.conf"):
            if os.geteuid() == 0:
                shutil.chown(data / name, "postgres", "postgres")
        log = (workdir / "replica.log").open("wb")
        process = subprocess.Popen(
            [pg_bin("postgres"), "-D", str(data)],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            **_as_postgres(),
        )
        replica = Replica(port, process, workdir)

        def up() -> bool:
            if process is not None and process.poll() is not None:
                raise RuntimeError((workdir / "replica.log").read_text()[-2000:])
            import psycopg

            try:
                return bool(replica.query("SELECT pg_is_in_recovery()")[0][0])
            except psycopg.OperationalError:  # not accepting connections yet
                return False

        wait_until(up, START_WITHIN, "the replica did not start")
        yield replica
    finally:
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGINT)  # a fast shutdown
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
        shutil.rmtree(workdir, ignore_errors=True)


# --- the service's processes ----------------------------------------------------------------------


@dataclass
class Proc:
    """A process of the service, in a process group of its own (``kill`` ends all of it)."""

    name: str
    argv: list[str]
    env: dict[str, str]
    log: Path
    process: subprocess.Popen[bytes] | None = None
    port: int | None = None

    def start(self) -> None:
        with self.log.open("ab") as output:
            self.process = spawn(self.argv, self.env, output)

    def kill(self) -> None:
        """``kill -9`` of the whole process group (a machine that died)."""
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)

    def stop(self) -> None:
        stop(self.process)
        if self.process is not None:  # whatever of its group outlived it
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)

    def ready(self) -> bool:
        """Answering /healthz (web, nginx), or a Celery worker that logged it is ready."""
        if self.process is None or self.process.poll() is not None:
            raise RuntimeError(f"{self.name} exited: {self.output()[-3000:]}")
        if self.port is not None:
            return answers(self.port, "/healthz")
        return any(mark in self.output() for mark in ("ready.", "beat: Starting"))

    def wait_ready(self) -> None:
        wait_until(self.ready, START_WITHIN, f"{self.name} did not start")

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


def cluster_nginx_config(listen: int, upstreams: list[int], workdir: Path) -> str:
    """docker/nginx.conf for loopback (``bench.frontend.nginx_config``) with every web node in
    its upstream."""
    text = frontend.nginx_config(listen, upstreams[0], workdir)
    first = f"server {HOST}:{upstreams[0]};"
    servers = "\n        ".join(f"server {HOST}:{port};" for port in upstreams)
    assert text.count(first) == 1
    return text.replace(first, servers)


@dataclass
class Cluster:
    """Where things are: ``port`` is nginx's; ``nodes`` the web nodes (their own ports too)."""

    port: int
    nodes: list[Proc]
    workers: list[Proc]
    beat: Proc | None
    nginx: Proc
    workdir: Path
    env: dict[str, str]
    replica: Replica | None

    def restart(self, proc: Proc) -> None:
        proc.stop()
        proc.log.write_bytes(b"")  # "ready." again means this start
        proc.start()
        proc.wait_ready()

    def logs(self) -> str:
        return "\n".join(f"--- {p.name}\n{p.output()[-3000:]}" for p in self.everything())

    def everything(self) -> list[Proc]:
        return [*self.nodes, *self.workers, *([self.beat] if self.beat else []), self.nginx]


def cluster_env(database_url: str, replica: Replica | None, **extra: str) -> dict[str, str]:
    database = database_url.rsplit("/", 1)[1]
    settings = {
        "DJANGO_ALLOWED_HOSTS": "*",
        "DJANGO_NUM_PROXIES": "1",
        "CELERY_BROKER_URL": REDIS_URL,
        "CACHE_URL": REDIS_URL,
        "LOG_LEVEL": "INFO",
        "UNO_THROTTLE_ACTIONS": "off",
        "UNO_THROTTLE_REGISTRATION": "off",
        "UNO_THROTTLE_TOKEN": "off",
        **LIMITS_OFF,
        **extra,
    }
    env = service_env(database_url, **settings)
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    env.pop("DATABASE_REPLICA_URL", None)
    if replica is not None:
        env["DATABASE_REPLICA_URL"] = replica.url(database)
    return env


def flush_broker() -> None:
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()


@contextlib.contextmanager
def running_cluster(
    database_url: str,
    replica: Replica | None,
    *,
    nodes: int = 2,
    workers: int = 2,
    beat: bool = True,
    web_concurrency: int = 1,
    env: Mapping[str, str] | None = None,
) -> Iterator[Cluster]:
    """nginx before ``nodes`` web nodes, ``workers`` Celery workers and a beat over the database
    at ``database_url`` (and ``replica``); everything stopped and removed however it ends."""
    workdir = Path(tempfile.mkdtemp(prefix="uno-cluster-"))
    started: list[Proc] = []

    def launch(proc: Proc) -> Proc:
        started.append(proc)
        proc.start()
        return proc

    try:
        environment = cluster_env(database_url, replica, **dict(env or {}))
        flush_broker()
        web = []
        for i in range(nodes):
            port = free_port()
            node_env = {**environment, "PORT": str(port), "WEB_CONCURRENCY": str(web_concurrency)}
            argv = [
                str(BIN / "gunicorn"),
                "-c",
                "python:unoservice.gunicorn_asgi",
                "unoservice.asgi:application",
                "--bind",
                f"{HOST}:{port}",
            ]
            name = f"web-{'ab'[i] if i < 2 else i}"
            web.append(launch(Proc(name, argv, node_env, workdir / f"{name}.log", port=port)))
        celery = [str(BIN / "celery"), "-A", "unoservice"]
        pool = []
        for i in range(workers):
            name = f"worker-{i + 1}"
            argv = [*celery, "worker", "-l", "info", "--concurrency", "1", "-n", f"{name}@%h"]
            # INFO: a worker says when it is ready, and which tasks it takes.
            worker_env = {**environment, "LOG_LEVEL": "INFO"}
            pool.append(launch(Proc(name, argv, worker_env, workdir / f"{name}.log")))
        beat_proc = None
        if beat:
            schedule = workdir / "celerybeat-schedule"
            argv = [*celery, "beat", "-l", "info", "--schedule", str(schedule)]
            beat_env = {**environment, "LOG_LEVEL": "INFO"}
            beat_proc = launch(Proc("beat", argv, beat_env, workdir / "beat.log"))
        for node in web:
            node.wait_ready()
        binary = frontend.nginx_binary()
        if binary is None:
            raise RuntimeError("no nginx here: apt-get install nginx (.ci/run does)")
        front = free_port()
        conf = workdir / "nginx.conf"
        conf.write_text(cluster_nginx_config(front, [n.port or 0 for n in web], workdir))
        argv = [binary, "-e", "stderr", "-p", str(workdir), "-c", str(conf)]
        nginx = launch(
            Proc("nginx", [*argv, "-g", frontend.DAEMON_OFF], {}, workdir / "nginx.log", port=front)
        )
        nginx.wait_ready()
        for worker in pool:
            worker.wait_ready()
        yield Cluster(front, web, pool, beat_proc, nginx, workdir, environment, replica)
    finally:
        for proc in reversed(started):
            proc.stop()
        flush_broker()
        shutil.rmtree(workdir, ignore_errors=True)


# --- clients --------------------------------------------------------------------------------------


def act(
    http: Client, game: str, token: str, action: dict[str, Any], key: str | None = None
) -> tuple[dict[str, Any], int]:
    """Send ``action`` with an Idempotency-Key until the service acknowledges it (200); retried
    through whatever answers (nginx sends the retry to a live node). (answer, retries)."""
    key = key or str(uuid.uuid4())
    retries = 0
    deadline = time.monotonic() + START_WITHIN
    while True:
        try:
            status, body = http.call(
                "POST", f"{API}/games/{game}/actions/", token, action, {"Idempotency-Key": key}
            )
        except NoAnswer:
            status, body = 0, None
        if status == 200:
            return body, retries
        if status not in (0, 502, 503, 504) or time.monotonic() > deadline:
            raise RuntimeError(f"action refused: {status} {body}")
        retries += 1


def read(http: Client, path: str, token: str) -> dict[str, Any]:
    """GET ``path``, retried while no node answers."""
    deadline = time.monotonic() + START_WITHIN
    while True:
        try:
            status, body = http.call("GET", path, token)
        except NoAnswer:
            status, body = 0, None
        if status == 200:
            return dict(body)
        if status not in (0, 502, 503, 504) or time.monotonic() > deadline:
            raise RuntimeError(f"GET {path}: {status} {body}")


def register(http: Client, name: str) -> str:
    """A new player through the API; their token."""
    password = "a sturdy pass phrase 42"
    status, body = http.call(
        "POST", f"{API}/players/", None, {"username": name, "password": password}
    )
    assert status == 201, body
    status, body = http.call(
        "POST", f"{API}/auth/token/", None, {"username": name, "password": password}
    )
    assert status == 200, body
    return str(body.get("access") or body["token"])


def two_player_game(http: Client, tokens: list[str]) -> str:
    status, body = http.call("POST", f"{API}/games/", tokens[0], {"max_players": 2})
    assert status == 201, body
    status, body = http.call("POST", f"{API}/games/{body['id']}/join/", tokens[1])
    assert status == 200 and body["status"] == "active", body
    return str(body["id"])


def next_action(http: Client, game: str, tokens: list[str], rng: random.Random) -> tuple[int, Any]:
    """(seat, a legal action of the seat that must act), read from the game's views."""
    seat = read(http, f"{API}/games/{game}/", tokens[0])["round"]["current_seat"]
    legal = read(http, f"{API}/games/{game}/", tokens[seat])["you"]["legal_actions"]
    return seat, rng.choice(legal)


# --- the benchmark --------------------------------------------------------------------------------


@dataclass
class Pair:
    game: Mirror  # a game in play, folded locally from its seed: who acts and what is legal
    tokens: list[str]
    finished: str  # a finished game of the pair (its log and replay may come from the replica)


@dataclass
class Rate:
    count: int = 0
    errors: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, ok: bool) -> None:
        with self.lock:
            if ok:
                self.count += 1
            else:
                self.errors += 1


def xacts(dsn: str, database: str) -> int:
    (total,) = primary_query(
        f"SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = '{database}'",
        dsn,
    )[0]
    return int(total)


# What each phase's clients do, one call a count: act (a legal action, known from the local fold,
# so no read before it), view (the game view, a read of the primary), or read a mix of what a
# lobby page and a profile read (the lists, the leaderboard, a finished game's log: the replica's).
PHASES = ("actions", "views", "reads")


def reads_of(pair: Pair) -> list[str]:
    return [
        f"{API}/games/{pair.game.id}/",
        f"{API}/games/?mine=true",
        f"{API}/leaderboard/",
        f"{API}/games/{pair.finished}/events/?after=0&limit=50",
    ]


def run_clients(port: int, pairs: list[Pair], seconds: float, phase: str) -> Rate:
    rate = Rate()
    stop_at = time.monotonic() + seconds

    def client(pair: Pair, seed: int) -> None:
        http = Client(port)
        rng = random.Random(seed)
        paths = reads_of(pair) if phase == "reads" else reads_of(pair)[:1]
        try:
            while time.monotonic() < stop_at:
                if phase == "actions":
                    if pair.game.state.status != "active":
                        return
                    play_one(http, pair.game, rng)
                    rate.add(True)
                    continue
                for path in paths:
                    status, _ = http.call("GET", path, pair.tokens[0])
                    rate.add(status == 200)
        finally:
            http.close()

    threads = [threading.Thread(target=client, args=(p, i)) for i, p in enumerate(pairs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return rate


def bench_level(
    replica: Replica, url: str, nodes: int, clients: int, seconds: float, out: IO[str]
) -> dict[str, float]:
    env = {"LOG_LEVEL": "WARNING"}  # a log line per request is not what is measured
    with running_cluster(url, replica, nodes=nodes, env=env) as cluster:
        http = Client(cluster.port)
        pairs = []
        for i in range(clients):
            tokens = [register(http, f"c{nodes}n{i}s{s}") for s in range(2)]
            finished = two_player_game(http, tokens)
            status, body = http.call("POST", f"{API}/games/{finished}/resign/", tokens[1])
            assert status == 200 and body["status"] == "finished", body
            pairs.append(Pair(new_game(http, tokens, seed=1000 * nodes + i), tokens, finished))
        http.close()
        figures: dict[str, float] = {}
        for phase in PHASES:
            replica.catch_up()
            before = (xacts(PRIMARY, DB_NAME), xacts(replica.dsn, DB_NAME))
            rate = run_clients(cluster.port, pairs, seconds, phase)
            after = (xacts(PRIMARY, DB_NAME), xacts(replica.dsn, DB_NAME))
            on_primary, on_replica = after[0] - before[0], after[1] - before[1]
            share = on_replica / max(1, on_primary + on_replica)
            figures[f"{phase}_per_s"] = rate.count / seconds
            figures[f"{phase}_replica_share"] = share
            print(
                f"{nodes} web node(s), {clients} clients, {phase}: {rate.count / seconds:.0f}/s "
                f"({rate.errors} errors); queries on the replica: {on_replica} of "
                f"{on_primary + on_replica} ({share:.0%})",
                file=out,
                flush=True,
            )
        return figures


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=15.0, help="per phase and level")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument(
        "--levels", default="1,2", help="web node counts, in the order run (e.g. 2,1)"
    )
    args = parser.parse_args()
    url = f"{SERVER}/{DB_NAME}"
    prepare_database(DB_NAME, service_env(url))
    with running_replica() as replica:
        replica.catch_up()
        results = {
            nodes: bench_level(replica, url, nodes, args.clients, args.seconds, sys.stdout)
            for nodes in (int(n) for n in args.levels.split(","))
        }
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"\nload average at the end (1, 5, 15 min, {os.cpu_count()} cores): {load}")
    print("\n| web nodes | actions/s | game views/s | reads/s (mix) | replica's share of the mix |")
    print("| --- | --- | --- | --- | --- |")
    for nodes, fig in results.items():
        print(
            f"| {nodes} | {fig['actions_per_s']:.0f} | {fig['views_per_s']:.0f} | "
            f"{fig['reads_per_s']:.0f} | {fig['reads_replica_share']:.0%} |"
        )


if __name__ == "__main__":
    main()
