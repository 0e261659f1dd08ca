"""Production settings: the deploy check, a missing secret key, static files with debug off.

Settings are read once, when Django starts, so each case starts a Python process of its own with
the environment under test.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.deployment import ROOT

STRONG_KEY = "p9Lx-2vQm_Rk7tWz4Yb8Nc1Hd6Gf3Js0Ae5Ui-Oo7Ty2Re9Wq4Ap6Sd1Fg8Hj3Kl"
DEPLOY_CHECK = (
    "import django; django.setup();"
    "from django.core.management import call_command;"
    "call_command('check', deploy=True, fail_level='WARNING')"
)


def run_python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -c code`` with the service's variables cleared, then ``env``."""
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "UNO_", "CELERY_", "LOG_", "CORS_"))
        and k not in {"DATABASE_URL", "CACHE_URL", "PROMETHEUS_MULTIPROC_DIR"}
    }
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "unoservice.settings", **env},
        capture_output=True,
        text=True,
        timeout=180,
    )


def test_a_missing_secret_key_stops_start_up_with_a_clear_message() -> None:
    result = run_python("import django; django.setup()", DJANGO_DEBUG="0")

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off" in result.stderr


def test_manage_py_refuses_to_start_without_a_secret_key() -> None:
    result = run_python(
        "import sys; sys.argv = ['manage.py', 'check'];"
        "import runpy; runpy.run_path('manage.py', run_name='__main__')",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY="",
    )

    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY must be set" in result.stderr


def test_debug_runs_without_configuration() -> None:
    result = run_python("import django; django.setup(); print('started')")

    assert result.returncode == 0, result.stderr
    assert "started" in result.stdout


def test_the_deploy_check_is_clean_with_debug_off() -> None:
    result = run_python(DEPLOY_CHECK, DJANGO_DEBUG="0", DJANGO_SECRET_KEY=STRONG_KEY)

    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout + result.stderr


@pytest.mark.parametrize(
    ("variable", "warning"),
    [
        ("DJANGO_SECURE_SSL_REDIRECT", "security.W008"),
        ("DJANGO_SECURE_COOKIES", "security.W012"),
        ("DJANGO_SECURE_HSTS_SECONDS", "security.W004"),
    ],
)
def test_each_https_switch_can_be_turned_off(variable: str, warning: str) -> None:
    result = run_python(
        DEPLOY_CHECK, DJANGO_DEBUG="0", DJANGO_SECRET_KEY=STRONG_KEY, **{variable: "0"}
    )

    assert result.returncode != 0
    assert warning in result.stderr


def test_the_proxy_ssl_header_comes_from_the_environment() -> None:
    code = (
        "import django; django.setup(); from django.conf import settings;"
        "print(settings.SECURE_PROXY_SSL_HEADER)"
    )
    good = run_python(code, DJANGO_SECURE_PROXY_SSL_HEADER="HTTP_X_FORWARDED_PROTO,https")
    bad = run_python(code, DJANGO_SECURE_PROXY_SSL_HEADER="HTTP_X_FORWARDED_PROTO")
    unset = run_python(code)

    assert good.stdout.strip() == "('HTTP_X_FORWARDED_PROTO', 'https')"
    assert bad.returncode != 0 and "DJANGO_SECURE_PROXY_SSL_HEADER must be" in bad.stderr
    assert unset.stdout.strip() == "None", "never trusted unless configured"


SERVE_STATIC = """
import django
django.setup()
from django.core.management import call_command
call_command("collectstatic", interactive=False, verbosity=0)
import re
from django.test import Client
client = Client()
docs = client.get("/api/docs/", secure=True)
assert docs.status_code == 200, docs.status_code
paths = re.findall(r'/static/drf_spectacular_sidecar/[^"]+', docs.content.decode())
assert any(p.endswith(".css") for p in paths) and any(p.endswith(".js") for p in paths), paths
for path in paths:
    answer = client.get(path, secure=True)
    assert answer.status_code == 200, (path, answer.status_code)
    assert type(answer).__name__ == "WhiteNoiseFileResponse", type(answer)
    assert "immutable" in answer["Cache-Control"], answer["Cache-Control"]
plain = client.get("/static/admin/css/base.css", secure=True)
assert plain.status_code == 200, plain.status_code
gz = client.get("/static/admin/css/base.css", secure=True, HTTP_ACCEPT_ENCODING="gzip")
assert gz["Content-Encoding"] == "gzip", dict(gz.items())
login = client.get("/admin/login/", secure=True)
assert login.status_code == 200, login.status_code
assert re.search(rb"/static/admin/css/base\\.[0-9a-f]{12}\\.css", login.content)
print("served", len(paths))
"""


def test_static_files_are_served_by_whitenoise_with_debug_off(tmp_path: Path) -> None:
    result = run_python(
        SERVE_STATIC,
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=STRONG_KEY,
        DJANGO_ALLOWED_HOSTS="testserver",
        DJANGO_STATIC_ROOT=str(tmp_path / "static"),
        LOG_LEVEL="ERROR",
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("served")
    manifest = tmp_path / "static" / "staticfiles.json"
    assert manifest.is_file()


CONNECTION_SETTINGS = (
    "from django.conf import settings;"
    "db = settings.DATABASES['default'];"
    "print(db['CONN_MAX_AGE'], db['CONN_HEALTH_CHECKS'])"
)


def test_database_connections_are_kept_by_default_and_health_checked() -> None:
    """A server started by hand (no docker/.env.example) keeps its connections like the deployed
    one: a new PostgreSQL session per request cost two thirds of the throughput (issue 11)."""
    default = run_python(
        "import django; django.setup();" + CONNECTION_SETTINGS,
        DATABASE_URL="postgres://u:p@127.0.0.1:5432/x",
    )
    chosen = run_python(
        "import django; django.setup();" + CONNECTION_SETTINGS,
        DATABASE_URL="postgres://u:p@127.0.0.1:5432/x",
        DATABASE_CONN_MAX_AGE="0",
    )

    assert default.stdout.split() == ["60", "True"], default.stderr
    assert chosen.stdout.split() == ["0", "True"], chosen.stderr


SERVE_UNCOLLECTED = """
import re
import django
django.setup()
from django.test import Client
client = Client()
for page in ("/api/docs/", "/admin/login/"):
    answer = client.get(page, secure=True)
    assert answer.status_code == 200, (page, answer.status_code, answer.content[:300])
    paths = re.findall(r'/static/[^"]+[.](?:css|js)', answer.content.decode())
    assert paths, page
    for path in paths:
        asset = client.get(path, secure=True)
        assert asset.status_code == 200, (path, asset.status_code)
print("served")
"""


def test_pages_with_static_files_work_with_debug_off_before_collectstatic(tmp_path: Path) -> None:
    """The README's gunicorn by hand (debug off, no collectstatic) answered the API docs and the
    admin's login with a 500: "Missing staticfiles manifest entry" (issue 11)."""
    result = run_python(
        SERVE_UNCOLLECTED,
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=STRONG_KEY,
        DJANGO_ALLOWED_HOSTS="testserver",
        DJANGO_STATIC_ROOT=str(tmp_path / "never-collected"),
        LOG_LEVEL="CRITICAL",
    )

    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "served"
