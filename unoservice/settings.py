"""Django settings for the UNO game service.

Everything that differs between a laptop, CI and production comes from the environment; the
full list, with production values, is ``docker/.env.example`` (``docs/deploy.md`` explains it):

- ``DJANGO_SECRET_KEY``: required unless ``DJANGO_DEBUG`` is on (then a dev key is used).
- ``DJANGO_DEBUG``: on by default, so a fresh checkout runs with no configuration. Off, the
  HTTPS settings below default to what ``manage.py check --deploy`` asks for.
- ``DJANGO_ALLOWED_HOSTS``: comma-separated; ``*`` in debug, ``localhost,127.0.0.1`` otherwise.
- ``DATABASE_URL``: any URL dj-database-url understands; a local SQLite file by default.
- ``DATABASE_REPLICA_URL``: a streaming replica of it, for the reads that may lag; unset: none.
- ``CELERY_BROKER_URL``: unset means tasks run in-process (``CELERY_TASK_ALWAYS_EAGER``).
- ``CELERY_RESULT_BACKEND``: optional.
- ``CACHE_URL``: a ``redis://`` URL for a cache shared by every process (throttling counts);
  a per-process memory cache by default.
- ``CORS_ALLOWED_ORIGINS``: comma-separated origins of browser clients.
- ``LOG_FORMAT`` (``json`` or ``text``; json when debug is off) and ``LOG_LEVEL``.
- ``UNO_VAPID_*`` (Web Push) and ``UNO_WEBHOOK*`` (webhook deliveries): see the notifications
  settings below.
- ``EMAIL_HOST`` (and ``EMAIL_PORT``, ``EMAIL_HOST_USER``, ``EMAIL_HOST_PASSWORD``,
  ``EMAIL_USE_TLS``, ``EMAIL_USE_SSL``), ``UNO_EMAIL_FROM``, ``UNO_PUBLIC_URL``: the account
  mails (an address's confirmation, a password's reset); without ``EMAIL_HOST`` they are
  printed on the console.
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from kombu import Queue

from unoservice.logging import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    """Read a boolean from the environment: 1/true/yes/on are true, 0/false/no/off are false."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean, got {raw!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    """Read a comma-separated list from the environment."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, got {raw!r}") from None


def env_rate(name: str, default: str) -> str | None:
    """A DRF throttle rate such as ``30/minute``; ``off`` (or ``none``) disables the throttle."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    value = raw.strip()
    return None if value.lower() in {"off", "none", "0"} else value


DEBUG = env_bool("DJANGO_DEBUG", True)

_DEV_SECRET_KEY = "django-insecure-dev-only-do-not-use-in-production"
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off: generate one with "
            "python -c 'import secrets; print(secrets.token_urlsafe(50))'"
        )
    SECRET_KEY = _DEV_SECRET_KEY

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["*"] if DEBUG else ["localhost", "127.0.0.1"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

# HTTPS. With debug off every switch defaults to the safe value `check --deploy` asks for; each
# can be turned off from the environment (e.g. to try the stack over plain http on localhost).
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", not DEBUG)
# Probes and scrapers talk plain http inside the cluster.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^metrics$"]
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", not DEBUG)
SECURE_HSTS_SECONDS = env_int("DJANGO_SECURE_HSTS_SECONDS", 0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", not DEBUG)
# Behind a TLS-terminating proxy: "HTTP_X_FORWARDED_PROTO,https". Only set it when the proxy
# always sets (and overwrites) that header, or clients could claim https themselves.
_proxy_header = env_list("DJANGO_SECURE_PROXY_SSL_HEADER", [])
if _proxy_header:
    if len(_proxy_header) != 2:
        raise ImproperlyConfigured(
            "DJANGO_SECURE_PROXY_SSL_HEADER must be 'HEADER,value', "
            "e.g. HTTP_X_FORWARDED_PROTO,https"
        )
    SECURE_PROXY_SSL_HEADER = (_proxy_header[0], _proxy_header[1])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "corsheaders",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "games",
    "players",
    "streams",
    "notifications",
    "service",
]

MIDDLEWARE = [
    "unoservice.middleware.RequestIdMiddleware",
    "unoservice.middleware.MetricsMiddleware",
    "unoservice.middleware.ChunkedBodyMiddleware",
    "unoservice.middleware.BodySizeMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "unoservice.storage.StaticFilesMiddleware",
    "corsheaders.middleware.CorsMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "unoservice.middleware.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "unoservice.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "unoservice.wsgi.application"
ASGI_APPLICATION = "unoservice.asgi.application"

# Connections are kept between requests (a new PostgreSQL session per request cost two thirds of
# the throughput) and health-checked before reuse, so one the server dropped is replaced.
DATABASES = {
    "default": dj_database_url.config(
        env="DATABASE_URL",
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    ),
}
# A streaming replica of the primary (docs/deploy.md, "Past one machine"): only the reads marked
# as allowed to lag go there (unoservice.replica); unset, every query goes to the primary.
_replica_url = os.environ.get("DATABASE_REPLICA_URL", "").strip()
if _replica_url:
    DATABASES["replica"] = {
        **dj_database_url.parse(
            _replica_url,
            conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60),
            conn_health_checks=True,
        ),
        # Tests read the primary's test database through this alias (no second test database).
        "TEST": {"MIRROR": "default"},
    }
    DATABASE_ROUTERS = ["unoservice.replica.ReplicaRouter"]
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # ``make run``: requests, bots and timeouts write from several threads of one process. A
    # transaction takes SQLite's write lock when it begins (a deferred one that reads first fails
    # at once with "database is locked" when it comes to write), writers wait for each other up
    # to 20 s, and WAL lets reads go on beside the writer.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }

# The cache holds the throttling counts: set CACHE_URL (redis://…) so every process and machine
# shares them; the default memory cache counts per process.
_cache_url = os.environ.get("CACHE_URL", "").strip()
CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": _cache_url}
        if _cache_url
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT") or BASE_DIR / "staticfiles")
# WhiteNoise serves the admin's and Swagger UI's files from the web process itself. With debug
# off they are hashed and compressed by `collectstatic` (run when the image is built); a server
# started without it serves the apps' own copies (unoservice/storage.py), never a 500.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "unoservice.storage.StaticFilesStorage"
        )
    },
}
# In development (and tests) WhiteNoise finds the files where the apps keep them; also with debug
# off when nothing was collected (unoservice.storage.StaticFilesMiddleware).
WHITENOISE_AUTOREFRESH = WHITENOISE_USE_FINDERS = DEBUG
# The web client (web/: index.html at /, sw.js, assets under /app/). An installed package has no
# checkout beside it: the image copies web/ and points here (docker/Dockerfile).
UNO_WEB_ROOT = Path(os.environ.get("UNO_WEB_ROOT") or BASE_DIR / "web")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Sessions' access tokens (and, while UNO_LEGACY_TOKENS, the old DRF keys): players.
        "players.authentication.AccessTokenAuthentication",
        # The admin's browser session: staff signed in there can try the API in Swagger UI.
        "rest_framework.authentication.SessionAuthentication",
    ],
    # JSON only, as the schema says: no browsable API (DRF's default besides JSON), which served
    # a browser's Accept: text/html an HTML page of the API, with forms. A client that accepts
    # nothing JSON gets 406 not_acceptable (a JSON body); a browser's Accept (…, */*) gets JSON.
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticated",
        # A bot account's token plays; it changes nothing of the account (players.scopes).
        "players.scopes.PlayScope",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 20,
    # Views opt in with `throttle_scope`; the rates are UNO_THROTTLE_RATES, read per request.
    "DEFAULT_THROTTLE_CLASSES": ["unoservice.throttling.ScopedThrottle"],
    # Proxies in front of the service: the client's address is taken from X-Forwarded-For only
    # past that many hops (0: the socket's address, which a client cannot forge).
    "NUM_PROXIES": env_int("DJANGO_NUM_PROXIES", 0),
}

# Throttle rates ("N/second|minute|hour|day", or "off"), per client address for registration and
# tokens and the admin's login form, per player for actions, game creation, joins and replays
# (a replay folds the game's log up to `at`: about 0.04 ms an event).
UNO_THROTTLE_RATES = {
    "registration": env_rate("UNO_THROTTLE_REGISTRATION", "20/hour"),
    "token": env_rate("UNO_THROTTLE_TOKEN", "30/minute"),
    # Failed sign-ins per username (any case), from any address (unoservice.throttling's
    # FailureLimit; players.apis.TokenIssueApi, the admin's login form): a password guessed from
    # many addresses. Past it the username is refused, even with its password, until the oldest
    # failure leaves the window: short, so whoever trips it for someone else locks them out of
    # new sign-ins for minutes, not days (their signed-in devices go on). docs/deploy.md.
    "signin_failures": env_rate("UNO_THROTTLE_SIGNIN_FAILURES", "10/15m"),
    "actions": env_rate("UNO_THROTTLE_ACTIONS", "300/minute"),
    "admin_login": env_rate("UNO_THROTTLE_ADMIN_LOGIN", "10/minute"),
    "games": env_rate("UNO_THROTTLE_GAMES", "60/hour"),
    "joins": env_rate("UNO_THROTTLE_JOINS", "120/hour"),
    "replays": env_rate("UNO_THROTTLE_REPLAYS", "120/minute"),
    # A player's whole data as one file (GET players/me/export/): reads every part of the account.
    "exports": env_rate("UNO_THROTTLE_EXPORTS", "10/hour"),
    # Reports to staff (POST reports/), per player: each lands in staff's queue, and nothing else
    # bounded how many one account could file.
    "reports": env_rate("UNO_THROTTLE_REPORTS", "20/hour"),
    # The account mails a request sends (players/mail.py): per player for an address's
    # confirmation, per client address for a password's reset, which anyone may ask.
    "mails": env_rate("UNO_THROTTLE_MAILS", "10/hour"),
}

# Limits on what one player, or all of them, may hold of the service (issue 11). Long polls of the
# event log (service/longpoll.py): per gunicorn worker, below its GUNICORN_THREADS, so threads are
# left for every other request.
UNO_LONG_POLLS_PER_PROCESS = env_int("UNO_LONG_POLLS_PER_PROCESS", 4)
UNO_LONG_POLLS_PER_PLAYER = env_int("UNO_LONG_POLLS_PER_PLAYER", 2)
# Waiting games one player may have a seat in at once (409 too_many_waiting_games past it).
UNO_MAX_WAITING_GAMES = env_int("UNO_MAX_WAITING_GAMES", 5)

# Only staff may give a game's `seed`: it fixes every shuffle, so a player who gave one would know
# every hand. Tests and benchmarks turn this on to reproduce games played by ordinary players;
# never in production.
UNO_SEEDS_FROM_PLAYERS = env_bool("UNO_SEEDS_FROM_PLAYERS", False)
# Every game's secret salt is random (docs/fairness.md); tests and benchmarks set one fixed salt
# (64 hex digits) so that a given seed deals the same cards again. Never in production: with a
# known salt, a known seed tells every hand.
UNO_TEST_SALT = os.environ.get("UNO_TEST_SALT") or None

# Browser clients on other origins (token auth: no cookies cross origins).
CORS_ALLOWED_ORIGINS = env_list("CORS_ALLOWED_ORIGINS", [])
CORS_URLS_REGEX = r"^/api/.*$"
CORS_ALLOW_HEADERS = (
    "accept",
    "authorization",
    "content-type",
    "idempotency-key",
    "x-request-id",
)
CORS_EXPOSE_HEADERS = ["Retry-After", "X-Request-ID"]

SPECTACULAR_SETTINGS = {
    "TITLE": "UNO game service",
    "DESCRIPTION": "Play UNO over HTTP: create and join games, act in turn, read the event log.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "unoservice.schema.add_common_errors",
        "games.event_schema.add_shape_components",
        "unoservice.schema.add_token_scheme",
        "unoservice.schema.close_request_bodies",
    ],
    # Operations are tagged by resource (games, players, auth), not by the version prefix.
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "PATH_CONVERTER_OVERRIDES": {"id": {"type": "string", "format": "uuid"}},
    # Several fields share these choice sets; one name each keeps the schema free of warnings.
    "ENUM_NAME_OVERRIDES": {
        "GameStatusEnum": "games.serializers.GAME_STATUSES",
        "SeatStatusEnum": "games.serializers.SEAT_STATUSES",
        "CardEnum": "games.serializers.CARD_CHOICES",
        "ColorEnum": "games.engine.COLORS",
        "NotificationKindEnum": "notifications.serializers.KIND_CHOICES",
        "BotLevelEnum": "games.engine.shapes.BOT_LEVELS",
        "TournamentStatusEnum": "games.serializers.TOURNAMENT_STATUSES",
        "TournamentFormatEnum": "games.serializers.TOURNAMENT_FORMATS",
    },
}

# Celery: with no broker configured, tasks run in-process, synchronously.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or None
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND") or None
CELERY_TASK_ALWAYS_EAGER = CELERY_BROKER_URL is None
CELERY_TASK_EAGER_PROPAGATES = CELERY_TASK_ALWAYS_EAGER
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1

REST_FRAMEWORK["EXCEPTION_HANDLER"] = "unoservice.errors.exception_handler"
# DRF's JSON parser with a size and a nesting limit (DRF itself ignores the size limit).
REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"] = ["unoservice.parsers.JSONParser"]
# The largest body accepted (bytes); the API's largest legitimate body (a staff deck) is ~2 KB.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("DJANGO_DATA_UPLOAD_MAX_MEMORY_SIZE", 256 * 1024)

# Turn deadlines: ETA tasks for deadlines within the horizon, a beat sweep for the rest.
UNO_SCHEDULE_HORIZON = int(os.environ.get("UNO_SCHEDULE_HORIZON", "600"))
UNO_SWEEP_INTERVAL = float(os.environ.get("UNO_SWEEP_INTERVAL", "5"))
UNO_SWEEP_BATCH_SIZE = int(os.environ.get("UNO_SWEEP_BATCH_SIZE", "100"))
# Bots act UNO_BOT_DELAY seconds after they must; a turn still unplayed UNO_BOT_GRACE seconds
# later (its task was lost) is played by the sweep.
UNO_BOT_DELAY = float(os.environ.get("UNO_BOT_DELAY", "1"))
UNO_BOT_GRACE = float(os.environ.get("UNO_BOT_GRACE", "10"))
# A tournament's players are told it starts soon UNO_TOURNAMENT_HEADS_UP seconds before its start.
UNO_TOURNAMENT_HEADS_UP = int(os.environ.get("UNO_TOURNAMENT_HEADS_UP", "600"))
# The most players a tournament takes (409 tournament_full beyond). Seating a round, or telling
# every player of the start, holds one PostgreSQL lock per player in one transaction, from a lock
# table of max_locks_per_transaction x max_connections entries (6,400 by default) that every
# connection shares: a tournament of 30,000 could never start (out of shared memory), and its
# tries took the table from everyone else's writes. Raise both together (docs/deploy.md).
UNO_TOURNAMENT_MAX_PLAYERS = env_int("UNO_TOURNAMENT_MAX_PLAYERS", 2000)
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_TIME_LIMIT = 60
CELERY_TASK_SOFT_TIME_LIMIT = 50
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Sending a deadline task must not hold a player's request while the broker is down: kombu
# otherwise retries the connection for ~6 s even with retry=False. One quick retry, then the
# task is skipped (logged); the beat sweep and the lazy path on reads cover it.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
    "socket_connect_timeout": 2,
}
CELERY_BEAT_SCHEDULE = {
    "sweep-overdue-games": {
        "task": "games.sweep_overdue_games",
        "schedule": UNO_SWEEP_INTERVAL,
    },
    "sweep-notifications": {
        "task": "notifications.sweep",
        "schedule": UNO_SWEEP_INTERVAL,
    },
    # Tournaments whose step's task was lost (service.tournament_steps).
    "sweep-tournaments": {
        "task": "tournaments.sweep",
        "schedule": UNO_SWEEP_INTERVAL,
    },
    # Guests unclaimed for limits.GUEST_DAYS days (service.guests).
    "remove-stale-guests": {
        "task": "players.remove_stale_guests",
        "schedule": 24 * 3600,
    },
}
# Deliveries (webhooks, Web Push, account mails) have a queue of their own, so a slow receiver
# never delays a turn's deadline; a worker consumes both unless told otherwise (-Q).
CELERY_TASK_QUEUES = (Queue("celery"), Queue("notifications"))
CELERY_TASK_ROUTES = {
    "notifications.*": {"queue": "notifications"},
    "players.deliver_account_mail": {"queue": "notifications"},
}

# Notifications (notifications/; docs/deploy.md). Webhook URLs (and push endpoints) that resolve
# to loopback, private or link-local addresses are refused unless this is on (tests, local use).
UNO_WEBHOOKS_ALLOW_PRIVATE = env_bool("UNO_WEBHOOKS_ALLOW_PRIVATE", False)
# Seconds from a failed delivery to the next attempt; the last one repeats.
UNO_WEBHOOK_RETRY_DELAYS = [
    int(delay)
    for delay in env_list("UNO_WEBHOOK_RETRY_DELAYS", ["10", "60", "300", "1800", "3600"])
]
if not UNO_WEBHOOK_RETRY_DELAYS or min(UNO_WEBHOOK_RETRY_DELAYS) < 0:
    raise ImproperlyConfigured("UNO_WEBHOOK_RETRY_DELAYS must be a comma list of seconds >= 0")
UNO_WEBHOOK_TIMEOUT = env_int("UNO_WEBHOOK_TIMEOUT", 10)
# A webhook whose every delivery failed for this long (seconds) is disabled.
UNO_WEBHOOK_DISABLE_AFTER = env_int("UNO_WEBHOOK_DISABLE_AFTER", 3 * 24 * 3600)
# Web Push (VAPID): `manage.py generate_vapid_keys` prints a key; without one push is off.
UNO_VAPID_PRIVATE_KEY = os.environ.get("UNO_VAPID_PRIVATE_KEY", "").strip()
UNO_VAPID_SUBJECT = os.environ.get("UNO_VAPID_SUBJECT", "").strip() or "mailto:admin@localhost"

# The account mails (players/mail.py): an address's confirmation and a password's reset, sent by
# a worker over SMTP (Django's EMAIL_* settings). Without EMAIL_HOST (make run) they are printed
# on the console, where a newcomer finds the link. Their links point at UNO_PUBLIC_URL (the web
# client's origin, e.g. https://uno.example.com), or else at the host the request named, which
# ALLOWED_HOSTS vouches for.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "").strip()
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10)
DEFAULT_FROM_EMAIL = os.environ.get("UNO_EMAIL_FROM", "").strip() or "UNO <no-reply@localhost>"
UNO_PUBLIC_URL = os.environ.get("UNO_PUBLIC_URL", "").strip().rstrip("/")
# A mail the SMTP server could not take is sent again after about this many seconds, doubled
# each time (9 tries: about two hours in all), by the beat's sweep; which also sends a mail not
# sent this long after it was asked for (its task was lost: the broker was down).
UNO_MAIL_RETRY_SECONDS = env_int("UNO_MAIL_RETRY_SECONDS", 30)
# How long a password reset's link works (Django's PASSWORD_RESET_TIMEOUT): a day.
PASSWORD_RESET_TIMEOUT = env_int("UNO_PASSWORD_RESET_SECONDS", 24 * 3600)

# Live streams (Server-Sent Events). A comment goes out on an idle stream every
# UNO_STREAM_KEEPALIVE seconds (15, the contract's most; proxies drop silent connections); a
# stream's backlog and the player streams' notifications are read in UNO_STREAM_DB_THREADS threads
# per process, each with its own database connection (new events are read on the listening
# connection, streams.hub). A stream ticket is good for 60 s (the contract's).
UNO_STREAM_KEEPALIVE = float(os.environ.get("UNO_STREAM_KEEPALIVE") or 15)
UNO_STREAM_DB_THREADS = env_int("UNO_STREAM_DB_THREADS", 4)
UNO_STREAM_TICKET_SECONDS = 60
# A stream opened under a session (sign-in) ends once that session ends: it asks, as its frames
# pass (a keep-alive at least every UNO_STREAM_KEEPALIVE), at most every this many seconds.
UNO_STREAM_SESSION_CHECK = float(os.environ.get("UNO_STREAM_SESSION_CHECK") or 30)

# Logs go to stderr: one JSON object a line in production (LOG_FORMAT=json, the default with
# debug off), `time level logger [request id] message key=value…` lines in development. Every line
# carries the request id (X-Request-ID) of the request that wrote it.
LOG_FORMAT = (os.environ.get("LOG_FORMAT") or ("text" if DEBUG else "json")).strip().lower()
if LOG_FORMAT not in {"json", "text"}:
    raise ImproperlyConfigured(f"LOG_FORMAT must be json or text, got {LOG_FORMAT!r}")
LOG_LEVEL = (os.environ.get("LOG_LEVEL") or "INFO").strip().upper()
LOGGING = logging_config(
    LOG_FORMAT,
    LOG_LEVEL,
    {
        # Replace Django's own handlers (debug-only console, mail to admins) with ours.
        "django": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False},
        "django.server": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False},
        # SQL is logged at DEBUG with its parameters (token keys, hands): never.
        "django.db.backends": {"level": "INFO"},
    },
)
# The worker keeps the logging above instead of installing its own (see unoservice/celery.py).
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# Operations: /metrics may require `Authorization: Bearer <UNO_METRICS_TOKEN>`; the Celery worker
# serves its own counters (timeouts it applied) on UNO_WORKER_METRICS_PORT (0: not served).
UNO_METRICS_TOKEN = os.environ.get("UNO_METRICS_TOKEN", "")
UNO_WORKER_METRICS_PORT = env_int("UNO_WORKER_METRICS_PORT", 0)
# How long /readyz waits for the broker.
UNO_READYZ_TIMEOUT = 2.0

# --- sessions (players.sessions, docs/api.md "Sessions") ----------------------------------------
# An access token lives UNO_ACCESS_TOKEN_SECONDS; a refresh token UNO_REFRESH_TOKEN_DAYS from its
# issue (each refresh issues a new one). UNO_LEGACY_TOKENS: the never-expiring DRF keys issued
# before sessions still authenticate (one release, so clients can move); off, they get 401.
UNO_ACCESS_TOKEN_SECONDS = env_int("UNO_ACCESS_TOKEN_SECONDS", 3600)
UNO_REFRESH_TOKEN_DAYS = env_int("UNO_REFRESH_TOKEN_DAYS", 30)
UNO_LEGACY_TOKENS = env_bool("UNO_LEGACY_TOKENS", True)
