"""The garbage collector of the web processes: what it scans, and how often.

CPython collects its youngest generation after every 700 new container objects, and a request
makes thousands. Each collection promotes what is alive at that moment, mostly objects of the
requests in flight, so the older generations fill with them, and the full collections that follow
scan everything else too: Django's whole loaded application, and every open event stream with
the events its game keeps (a thousand open streams made a worker hold 130,000 to 190,000 more
objects). With 2,000 streams watching games played flat out (``bench/streams.py``;
docs/performance.md), the collector took 0.68 ms of web CPU per action; after ``tune``, 0.18 ms.
"""

from __future__ import annotations

import gc

# Container allocations (net of frees) between collections of the youngest generation; then
# collections of each generation between collections of the next. The young generation's garbage
# waits longer to be freed: at most this many objects, a few MiB per process.
THRESHOLDS = (50_000, 20, 10)


def tune() -> None:
    """Freeze every object there is now (the application just loaded: it is never garbage, so no
    collection scans it again; in gunicorn's arbiter, before it forks its workers, this also
    keeps the pages it shares with them unwritten), and collect less often."""
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
