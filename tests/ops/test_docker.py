"""The container setup, checked without a Docker engine: docker/compose.yml, docker/Dockerfile,
docker/.env.example and the Procfile name real modules, line up with the settings and with each
other."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from urllib.parse import urlsplit

import pytest
from rest_framework.fields import IntegerField

from games.serializers import EventsQuerySerializer
from tests.support.deployment import (
    COMPOSE,
    DOCKER,
    ROOT,
    all_env_vars_read,
    check_command,
    compose,
    copies,
    dockerfile_env,
    dockerfile_instructions,
    env_example,
    final_stage,
    gunicorn_settings,
    procfile,
)

APP_SERVICES = ("migrate", "web", "worker", "beat")
LONG_RUNNING = ("web", "worker", "beat")


CLUSTER = ("postgres-replica", "web-2", "worker-2")


def test_compose_has_the_whole_stack() -> None:
    services = compose()["services"]
    default = {name for name, service in services.items() if "profiles" not in service}

    assert default == {"postgres", "redis", "proxy", *APP_SERVICES}
    assert set(services) - default == set(CLUSTER)
    for name in ("postgres", "redis"):
        assert services[name]["healthcheck"]["test"], name


@pytest.mark.parametrize("name", LONG_RUNNING)
def test_processes_wait_for_migrations_and_healthy_backends(name: str) -> None:
    depends = compose()["services"][name]["depends_on"]

    assert depends == {
        "postgres": {"condition": "service_healthy"},
        "redis": {"condition": "service_healthy"},
        "migrate": {"condition": "service_completed_successfully"},
    }


def test_migrate_is_a_one_shot_job_after_postgres() -> None:
    migrate = compose()["services"]["migrate"]

    assert check_command(migrate["command"]) == "migrate"
    assert migrate["restart"] == "no"
    assert migrate["depends_on"] == {"postgres": {"condition": "service_healthy"}}


@pytest.mark.parametrize(("name", "kind"), [("web", "web"), ("worker", "worker"), ("beat", "beat")])
def test_each_command_names_real_modules(name: str, kind: str) -> None:
    assert check_command(compose()["services"][name]["command"]) == kind


def test_the_app_services_share_one_image_built_from_the_repository() -> None:
    services = compose()["services"]

    for name in APP_SERVICES:
        build = services[name]["build"]
        context = (COMPOSE.parent / build["context"]).resolve()
        assert context == ROOT
        assert (context / build["dockerfile"]).is_file()
        assert services[name]["image"] == services["web"]["image"]
        env_files = services[name]["env_file"]
        assert env_files[0] == {"path": ".env.example"}
        assert (DOCKER / ".env.example").is_file()
        assert env_files[1] == {"path": ".env", "required": False}
        assert "environment" not in services[name], "configuration lives in the env file"


def test_the_beat_schedule_names_registered_tasks() -> None:
    from django.conf import settings

    from unoservice.celery import app

    app.loader.import_default_modules()
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert entry["task"] in app.tasks


def test_the_env_file_lists_every_variable_the_code_reads_and_no_other() -> None:
    read = all_env_vars_read()
    listed = set(env_example())
    # Set by manage.py, wsgi.py and celery.py themselves (setdefault), and by the image.
    assert "DJANGO_SETTINGS_MODULE" not in read

    assert read - listed == set(), "read by the code but missing from docker/.env.example"
    assert listed - read == set(), "in docker/.env.example but read by nothing"
    assert {"DJANGO_SECRET_KEY", "DJANGO_DEBUG", "DJANGO_ALLOWED_HOSTS", "DATABASE_URL"} <= read
    assert {"CELERY_BROKER_URL", "CORS_ALLOWED_ORIGINS", "PORT", "WEB_CONCURRENCY"} <= read


def test_the_env_file_points_at_the_compose_services() -> None:
    env = env_example(commented=False)
    services = compose()["services"]
    postgres = services["postgres"]["environment"]

    database = urlsplit(env["DATABASE_URL"])
    assert database.hostname == "postgres" and database.port == 5432
    assert database.username == postgres["POSTGRES_USER"]
    assert database.password == postgres["POSTGRES_PASSWORD"]
    assert database.path == f"/{postgres['POSTGRES_DB']}"
    for name in ("CELERY_BROKER_URL", "CACHE_URL"):
        assert urlsplit(env[name]).hostname == "redis", name
    assert env["DJANGO_DEBUG"] == "0"


def _settings_with(env: dict[str, str], code: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "UNO_"))}
    clean.pop("DATABASE_URL", None)
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, **env, "DJANGO_SETTINGS_MODULE": "unoservice.settings"},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_env_file_loads_and_passes_the_deploy_check_once_made_production() -> None:
    env = env_example(commented=False)
    production = {
        **env,
        "DJANGO_SECRET_KEY": "kU3n9-production-like-secret-key-with-plenty-of-entropy-7Qx2Lm",
        "DJANGO_SECURE_SSL_REDIRECT": "1",
        "DJANGO_SECURE_COOKIES": "1",
    }
    code = (
        "import django; django.setup();"
        "from django.core.management import call_command;"
        "call_command('check', deploy=True, fail_level='WARNING')"
    )

    as_shipped = _settings_with(env, code)
    made_production = _settings_with(production, code)

    # As shipped (plain http on localhost) the check names exactly what PRODUCTION lines fix.
    assert as_shipped.returncode != 0
    for warning in ("security.W008", "security.W009", "security.W012", "security.W016"):
        assert warning in as_shipped.stderr, warning
    assert made_production.returncode == 0, made_production.stderr


def test_the_web_port_lines_up_everywhere() -> None:
    env = env_example(commented=False)
    web = compose()["services"]["web"]
    conf = gunicorn_settings(env)
    port = int(conf.bind.rsplit(":", 1)[1])

    published = [str(p).split(":") for p in web["ports"]]
    assert [int(container) for *_, container in published] == [port]
    assert f"127.0.0.1:{port}/healthz" in " ".join(web["healthcheck"]["test"])
    assert ("EXPOSE", str(port)) in final_stage()
    assert conf.bind.startswith("0.0.0.0:")
    assert gunicorn_settings({"PORT": "9001"}).bind == "0.0.0.0:9001"


def test_gunicorn_takes_its_workers_from_the_environment() -> None:
    conf = gunicorn_settings({"WEB_CONCURRENCY": "5", "GUNICORN_THREADS": "3"})

    assert (conf.workers, conf.threads, conf.worker_class) == (5, 3, "gthread")
    assert conf.timeout > 30, "above the event log's longest poll"


def test_the_dockerfile_builds_in_stages_and_runs_as_a_non_root_user() -> None:
    instructions = dockerfile_instructions()
    stages = [rest for keyword, rest in instructions if keyword == "FROM"]
    runtime = final_stage()

    assert len(stages) >= 2
    assert all(stage.startswith("python:3.11-slim") for stage in stages)
    users = [rest for keyword, rest in runtime if keyword == "USER"]
    assert users, "the runtime stage must set USER"
    user = users[-1].split(":")[0]
    assert user not in {"root", "0"}
    assert any("pip install ." in rest for keyword, rest in instructions if keyword == "RUN")
    assert any("collectstatic" in rest for keyword, rest in instructions if keyword == "RUN")


def test_the_dockerfile_copies_files_that_exist() -> None:
    for flags, _destination, sources in copies(dockerfile_instructions()):
        if any(flag.startswith("--from=") for flag in flags):
            continue
        for source in sources:
            assert (ROOT / source).exists(), source


def test_the_image_entrypoint_and_default_command_exist() -> None:
    runtime = final_stage()
    entrypoint = json.loads(next(rest for keyword, rest in runtime if keyword == "ENTRYPOINT"))
    command = json.loads(next(rest for keyword, rest in runtime if keyword == "CMD"))
    copied = {destination: sources for _, destination, sources in copies(runtime)}

    script = next(dest for dest in copied if dest.rsplit("/", 1)[-1] == entrypoint[0])
    (source,) = copied[script]
    assert (ROOT / source).read_text().startswith("#!/bin/sh")
    assert os.access(ROOT / source, os.X_OK), f"{source} should be executable"
    assert script.startswith("/usr/local/bin/"), "on the PATH"
    assert check_command(command) == "web"


def test_the_image_environment_names_real_settings() -> None:
    env = dockerfile_env(final_stage())

    importlib.import_module(env["DJANGO_SETTINGS_MODULE"])
    assert env["DJANGO_DEBUG"] == "0"
    assert env["DJANGO_STATIC_ROOT"].startswith("/app/")
    assert env["PROMETHEUS_MULTIPROC_DIR"]
    documented = env_example()
    for name in ("DJANGO_STATIC_ROOT", "PROMETHEUS_MULTIPROC_DIR"):
        assert documented[name] == env[name], name


def test_the_procfile_runs_web_worker_and_beat() -> None:
    processes = procfile()

    assert {name: check_command(argv) for name, argv in processes.items()} == {
        "web": "web",
        "worker": "worker",
        "beat": "beat",
    }


# --- nginx in front (issue 11: slow clients held gunicorn's threads) ----------------------------


def nginx_directives() -> dict[str, list[str]]:
    """Each directive of docker/nginx.conf with its values, in file order."""
    found: dict[str, list[str]] = {}
    for line in (DOCKER / "nginx.conf").read_text().splitlines():
        words = line.split("#", 1)[0].strip().rstrip(";").split(None, 1)
        if len(words) == 2 and not words[1].endswith("{"):
            found.setdefault(words[0], []).append(words[1])
    return found


def test_nginx_is_the_only_door_from_outside() -> None:
    services = compose()["services"]
    proxy = services["proxy"]
    env = env_example(commented=False)
    port = int(gunicorn_settings(env).bind.rsplit(":", 1)[1])
    nginx = nginx_directives()

    assert proxy["volumes"] == ["./nginx.conf:/etc/nginx/nginx.conf:ro"]
    assert (DOCKER / "nginx.conf").is_file()
    assert proxy["depends_on"] == {
        "web": {"condition": "service_healthy"},
        # Only with --profile cluster; it answers to `web` too, so the upstream holds both.
        "web-2": {"condition": "service_healthy", "required": False},
    }
    listen = int(nginx["listen"][0])
    assert [str(p) for p in proxy["ports"]] == [f"8000:{listen}"]
    assert f"127.0.0.1:{listen}/healthz" in " ".join(proxy["healthcheck"]["test"])
    assert nginx["server"] == [f"web:{port}"], "the upstream is the web service's port"
    assert all(str(p).startswith("127.0.0.1:") for p in services["web"]["ports"]), (
        "gunicorn is not published beyond the host's loopback"
    )
    assert env["DJANGO_NUM_PROXIES"] == "1"


def test_nginx_buffers_whole_requests_within_the_services_limits() -> None:
    from django.conf import settings

    nginx = nginx_directives()
    size = int(nginx["client_max_body_size"][0].rstrip("k")) * 1024

    assert nginx["proxy_request_buffering"] == ["on"]
    assert size == int(env_example(commented=False)["DJANGO_DATA_UPLOAD_MAX_MEMORY_SIZE"])
    assert nginx["client_body_buffer_size"] == nginx["client_max_body_size"], (
        "bodies stay in memory"
    )
    assert nginx["proxy_set_header"].count("X-Forwarded-For $remote_addr") == 1, "overwritten"
    wait_field = EventsQuerySerializer().fields["wait"]
    assert isinstance(wait_field, IntegerField) and wait_field.max_value is not None
    wait = wait_field.max_value
    assert int(nginx["proxy_read_timeout"][0].rstrip("s")) > wait, "above the longest long poll"
    assert size == settings.DATA_UPLOAD_MAX_MEMORY_SIZE


def test_the_image_installs_every_package_of_the_project() -> None:
    """``pip install .`` in the image installs the packages copied before it: each one that
    pyproject.toml lists must be copied (the notifications app once was not, and the image
    would not have started)."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = project["tool"]["setuptools"]["packages"]["find"]["include"]
    packages = {pattern.removesuffix("*") for pattern in patterns}
    copied = {
        source
        for flags, _destination, sources in copies(dockerfile_instructions())
        if not any(flag.startswith("--from=") for flag in flags)
        for source in sources
    }

    assert packages == {"unoservice", "games", "players", "streams", "notifications", "service"}
    assert packages <= copied, sorted(packages - copied)


def test_the_cluster_profile_adds_a_replica_a_second_web_node_and_a_second_worker() -> None:
    """``--profile cluster`` (docs/deploy.md): the shape bench/cluster.py and tests/cluster run."""
    services = compose()["services"]
    for name in CLUSTER:
        assert services[name]["profiles"] == ["cluster"], name
    for second, first in (("web-2", "web"), ("worker-2", "worker")):
        assert services[second]["image"] == services[first]["image"]
        assert services[second]["env_file"] == services[first]["env_file"]
        assert services[second]["depends_on"] == services[first]["depends_on"]
        assert check_command(services[second]["command"]) == first
    assert services["web-2"]["networks"]["default"]["aliases"] == ["web"]
    assert "-n" in services["worker-2"]["command"]  # a node name of its own
    replica = services["postgres-replica"]
    script = " ".join(replica["entrypoint"])
    assert "pg_basebackup -h postgres" in script and " -R " in script
    assert replica["depends_on"] == {"postgres": {"condition": "service_healthy"}}
    mounted = services["postgres"]["volumes"][1].split(":")
    assert (DOCKER / mounted[0]).resolve().is_file()
    assert mounted[1].startswith("/docker-entrypoint-initdb.d/")
    replica_url = env_example()["DATABASE_REPLICA_URL"]
    assert urlsplit(replica_url).hostname == "postgres-replica"


def _docker_compose() -> list[str]:
    """``docker compose`` where Docker's client and its compose plugin exist, else skip."""
    import shutil

    if shutil.which("docker") is None:
        pytest.skip("no docker client here")
    probe = subprocess.run(["docker", "compose", "version"], capture_output=True, timeout=60)
    if probe.returncode != 0:
        pytest.skip("the docker client has no compose plugin here")
    return ["docker", "compose", "-f", str(COMPOSE)]


@pytest.mark.parametrize("profile", [[], ["--profile", "cluster"]])
def test_docker_compose_config_accepts_the_file(profile: list[str]) -> None:
    """``docker compose config`` (no engine needed) with and without the cluster profile."""
    base = _docker_compose()
    run = subprocess.run(
        [*base, *profile, "config", "--services"], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    expected = {"postgres", "redis", "proxy", *APP_SERVICES, *(CLUSTER if profile else ())}
    assert set(run.stdout.split()) == expected
