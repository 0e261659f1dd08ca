"""How long a password reset's request takes for an address of an account and for one of nobody's.

The request must not tell them apart by its time (``players.mail``: the worker looks the address
up). This times it in-process (Django's test client, no HTTP server), on the database of
``DATABASE_URL`` (migrated here) with the broker of ``CELERY_BROKER_URL`` (default Redis db 15):
the request writes its row and publishes its task; no worker runs, the rows are deleted between
rounds. Alternating the two addresses, ``--rounds`` of each; prints each one's median and 90th
percentile and the medians' difference.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_reset python bench/reset_timing.py
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

RESET = "/api/v1/auth/password-reset/"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "unoservice.settings")
    os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/15")
    os.environ["UNO_THROTTLE_MAILS"] = "off"
    os.environ["UNO_PUBLIC_URL"] = "https://bench.example.com"
    os.environ.setdefault("LOG_LEVEL", "WARNING")

    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import setup_test_environment

    from players.models import AccountMail

    setup_test_environment()  # the test client's host is allowed; mails stay in memory
    call_command("migrate", verbosity=0)
    User.objects.filter(username="bench-reset").delete()
    User.objects.create_user("bench-reset", password="unused-password-9", email="k@example.com")
    client = Client()
    times: dict[str, list[float]] = {"known": [], "unknown": []}
    addresses = {"known": "k@example.com", "unknown": "u@example.com"}
    for _ in range(10):  # warm up: connections, imports, the first query plans
        for address in addresses.values():
            client.post(RESET, {"email": address}, content_type="application/json")
    for _ in range(args.rounds):
        for kind, address in addresses.items():
            start = time.perf_counter()
            answer = client.post(RESET, {"email": address}, content_type="application/json")
            times[kind].append(time.perf_counter() - start)
            assert answer.status_code == 202, answer.content
        AccountMail.objects.all().delete()
    User.objects.filter(username="bench-reset").delete()

    medians = {}
    for kind, spent in times.items():
        spent.sort()
        medians[kind] = statistics.median(spent) * 1000
        p90 = spent[int(len(spent) * 0.9)] * 1000
        print(f"{kind:8} median {medians[kind]:.2f} ms  p90 {p90:.2f} ms  ({len(spent)} requests)")
    print(f"difference of the medians: {medians['known'] - medians['unknown']:+.2f} ms")


if __name__ == "__main__":
    main()
