"""The web client's modules run in Node without a browser: a check script (``*_check.mjs``
beside the tests) with copies of the modules it imports, fed a JSON file of cases."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
APP = HERE.parents[1] / "web" / "app"
NODE = shutil.which("node")
NO_NODE = "no node (make check-web installs the web tools with it)"


def run_check(
    script: str,
    cases: Any,
    tmp: Path,
    modules: Iterable[str | tuple[str, Path]] = (),
    timeout: float = 60,
) -> Any:
    """Run ``script`` (a file beside this one) in Node on ``cases``, with ``modules`` copied
    beside it (a name of ``web/app/``, or a name and the file it copies); what it prints, read
    as JSON. Skips the test without Node."""
    if NODE is None:
        pytest.skip(NO_NODE)
    for module in modules:
        name, source = module if isinstance(module, tuple) else (module, APP / module)
        shutil.copy(source, tmp / name)
    (tmp / "package.json").write_text('{"type": "module"}')
    shutil.copy(HERE / script, tmp / "check.mjs")
    (tmp / "cases.json").write_text(json.dumps(cases))
    done = subprocess.run(
        [NODE, str(tmp / "check.mjs"), str(tmp / "cases.json")],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
