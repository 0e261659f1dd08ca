"""Settings of the service benchmark: the real settings plus a trivial endpoint to compare."""

from unoservice.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
DEBUG = False
ALLOWED_HOSTS = ["*"]
REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_CLASSES": [], "DEFAULT_THROTTLE_RATES": {}}  # noqa: F405
# The benchmark's players give seeds, to fold the games locally.
UNO_SEEDS_FROM_PLAYERS = True
UNO_TEST_SALT = "be" * 32  # bench.harness.BENCH_SALT: the same deals as the local folds
