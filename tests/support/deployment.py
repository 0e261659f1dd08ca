"""Readers of the deployment files (compose, Dockerfile, .env.example, Procfile) for the tests.

No Docker engine runs here: these helpers read the files as text and check what can be checked
without one, against the real code (modules imported, settings read).
"""

from __future__ import annotations

import ast
import importlib
import os
import re
import shlex
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
DOCKER = ROOT / "docker"
COMPOSE = DOCKER / "compose.yml"
DOCKERFILE = DOCKER / "Dockerfile"
ENV_EXAMPLE = DOCKER / ".env.example"
PROCFILE = ROOT / "Procfile"
# The Python files that read the environment: settings, gunicorn's config, the Celery app…
CONFIG_SOURCES = sorted((ROOT / "unoservice").glob("*.py"))
_ENV_HELPERS = {"env_bool", "env_list", "env_int", "env_rate", "_int"}
_ENV_LINE = re.compile(r"^#?\s*([A-Z][A-Z0-9_]*)=(.*)$")


def compose() -> dict[str, Any]:
    return dict(yaml.safe_load(COMPOSE.read_text()))


def env_example(*, commented: bool = True) -> dict[str, str]:
    """NAME=value lines of .env.example; with ``commented``, ``# NAME=value`` lines too."""
    values: dict[str, str] = {}
    for line in ENV_EXAMPLE.read_text().splitlines():
        match = _ENV_LINE.match(line.strip())
        if match and (commented or not line.lstrip().startswith("#")):
            values[match.group(1)] = match.group(2)
    return values


def env_vars_read(path: Path) -> set[str]:
    """Environment variables a module reads: ``os.environ.get("X")``, ``os.getenv("X")``,
    ``os.environ["X"]``, the settings' ``env_*("X", …)`` helpers, ``config(env="X")``.
    ``os.environ.setdefault`` is a write, not a read."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if (
            isinstance(node, ast.Subscript)
            and ast.unparse(node.value) == "os.environ"
            and isinstance(node.slice, ast.Constant)
        ):
            names.add(str(node.slice.value))
        if not isinstance(node, ast.Call):
            continue
        func = ast.unparse(node.func)
        reads = func in {"os.environ.get", "os.getenv"} or func in _ENV_HELPERS
        if reads and node.args and isinstance(node.args[0], ast.Constant):
            names.add(str(node.args[0].value))
        for keyword in node.keywords:
            if keyword.arg == "env" and isinstance(keyword.value, ast.Constant):
                names.add(str(keyword.value.value))
    return names


def all_env_vars_read() -> set[str]:
    return set().union(*(env_vars_read(path) for path in CONFIG_SOURCES))


# --- the Dockerfile -----------------------------------------------------------------------------


def dockerfile_instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, continuation lines joined, comments dropped."""
    instructions: list[tuple[str, str]] = []
    pending = ""
    for raw in DOCKERFILE.read_text().splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line = pending + line
        pending = ""
        keyword, _, rest = line.partition(" ")
        instructions.append((keyword.upper(), rest.strip()))
    return instructions


def final_stage() -> list[tuple[str, str]]:
    instructions = dockerfile_instructions()
    last_from = max(i for i, (keyword, _) in enumerate(instructions) if keyword == "FROM")
    return instructions[last_from:]


def dockerfile_env(stage: list[tuple[str, str]]) -> dict[str, str]:
    env: dict[str, str] = {}
    for keyword, rest in stage:
        if keyword == "ENV":
            for item in shlex.split(rest):
                name, _, value = item.partition("=")
                env[name] = value
    return env


def copies(stage: list[tuple[str, str]]) -> list[tuple[list[str], str, list[str]]]:
    """(flags, destination, sources) of each COPY of a stage."""
    result = []
    for keyword, rest in stage:
        if keyword == "COPY":
            words = shlex.split(rest)
            flags = [w for w in words if w.startswith("--")]
            paths = [w for w in words if not w.startswith("--")]
            result.append((flags, paths[-1], paths[:-1]))
    return result


# --- commands -----------------------------------------------------------------------------------


def check_command(argv: list[str]) -> str:
    """Check that a process's command names real modules; return which kind it is."""
    program = argv[0]
    if program == "gunicorn":
        config = argv[argv.index("-c") + 1]
        assert config.startswith("python:"), f"gunicorn config should be a module: {config}"
        conf = importlib.import_module(config.removeprefix("python:"))
        apps = [a for i, a in enumerate(argv[1:], 1) if ":" in a and argv[i - 1] != "-c"]
        assert len(apps) == 1, f"one WSGI application expected in {argv}"
        module, _, attribute = apps[0].partition(":")
        application = getattr(importlib.import_module(module), attribute)
        assert callable(application), apps[0]
        assert conf.wsgi_app == apps[0]
        return "web"
    if program == "celery":
        from celery import Celery

        package = importlib.import_module(argv[argv.index("-A") + 1])
        assert isinstance(getattr(package, "celery_app", None) or package.app, Celery)
        subcommand = next(a for a in argv[1:] if a in {"worker", "beat"})
        return subcommand
    if argv[:2] == ["python", "manage.py"]:
        from django.core.management import get_commands

        assert (ROOT / "manage.py").is_file()
        assert argv[2] in get_commands(), f"no management command {argv[2]}"
        return argv[2]
    raise AssertionError(f"unknown program in {argv}")


def procfile() -> dict[str, list[str]]:
    processes = {}
    for line in PROCFILE.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, command = line.partition(":")
            processes[name.strip()] = shlex.split(command)
    return processes


def gunicorn_settings(env: dict[str, str]) -> Any:
    """gunicorn's config module as it loads with ``env`` (a fresh import)."""
    import sys

    saved = dict(os.environ)
    os.environ.update(env)
    try:
        sys.modules.pop("unoservice.gunicorn_conf", None)
        return importlib.import_module("unoservice.gunicorn_conf")
    finally:
        os.environ.clear()
        os.environ.update(saved)
        sys.modules.pop("unoservice.gunicorn_conf", None)
