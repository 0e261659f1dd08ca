"""axe-core (web/node_modules/axe-core, installed by ``make web-tools``) in a page of the tests:
injected from the file, never fetched, then run over the whole document for its violations."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

AXE = Path(__file__).resolve().parents[2] / "web" / "node_modules" / "axe-core" / "axe.min.js"
IMPACTS = ("critical", "serious", "moderate", "minor")
# What the check fails on: the rest is listed in docs/accessibility.md.
BLOCKING = ("critical", "serious")
TARGETS_SHOWN = 3  # of each violation's elements, in a failure's message

RUN = """async () => {
  const results = await axe.run(document, {resultTypes: ['violations']});
  return {
    version: axe.version,
    violations: results.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.map(String).join(' ')),
    })),
  };
}"""


@dataclass(frozen=True)
class Violation:
    """One rule that some elements of the page break."""

    rule: str
    impact: str
    help: str
    targets: tuple[str, ...]  # a CSS selector for each element (axe's ``target``)

    def line(self) -> str:
        shown = ", ".join(self.targets[:TARGETS_SHOWN])
        more = len(self.targets) - TARGETS_SHOWN
        tail = f" (+{more} more)" if more > 0 else ""
        return f"{self.rule} [{self.impact}] {self.help}: {shown}{tail}"


@dataclass(frozen=True)
class Audit:
    """axe's violations on one page as it was shown, under ``label`` (page and width)."""

    label: str
    version: str
    violations: tuple[Violation, ...]

    def of(self, impacts: Iterable[str]) -> list[Violation]:
        wanted = set(impacts)
        return [v for v in self.violations if v.impact in wanted]

    def counts(self) -> Counter[str]:
        """Elements in violation, by impact."""
        return Counter({i: sum(len(v.targets) for v in self.of([i])) for i in IMPACTS})

    def summary(self) -> str:
        rules = "; ".join(f"{v.rule} [{v.impact}] x{len(v.targets)}" for v in self.violations)
        return f"{self.label} (axe {self.version}): {rules or 'no violations'}"


def audit(page: Page, label: str) -> Audit:
    """axe over ``page`` as it shows now (injected once per document)."""
    if not AXE.is_file():
        raise AssertionError(f"no {AXE}: run make web-tools")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    found: dict[str, Any] = page.evaluate(RUN)
    violations = tuple(
        Violation(v["id"], v["impact"] or "minor", v["help"], tuple(v["targets"]))
        for v in found["violations"]
    )
    return Audit(label, str(found["version"]), violations)


def assert_accessible(audits: Iterable[Audit]) -> None:
    """No critical and no serious violation in any of ``audits``; the message lists each one
    (rule, impact, help, its first elements) under its page."""
    failing = [(a, a.of(BLOCKING)) for a in audits]
    lines = [
        f"{a.label}:\n" + "\n".join(f"  {v.line()}" for v in found) for a, found in failing if found
    ]
    assert not lines, "axe found critical or serious violations\n" + "\n".join(lines)
