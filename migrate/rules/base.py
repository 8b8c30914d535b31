"""Rules: what a rule is, and the fixed shape of a rule's documentation.

Each rule lives in its own module whose docstring is the rule's documentation (ruff
style): a first line `ID name: summary`, then the sections What it does / Why /
Example / Fix. `docs/rules.md` is generated from these docstrings.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from migrate.findings import Finding

SECTIONS = ("What it does", "Why", "Example", "Fix")
_HEAD = re.compile(r"^(?P<id>[A-Z]+\d+) (?P<name>[a-z0-9-]+): (?P<summary>.+)$")


@dataclass(frozen=True)
class Rule:
    id: str
    name: str
    severity: str
    summary: str
    sections: dict[str, str] = field(compare=False)
    check: Callable = field(compare=False)  # (Context) -> Iterable[Finding]

    def at(
        self,
        path: str,
        line: int,
        message: str,
        *,
        evidence: str = "",
        fix: str = "",
        col: int = 0,
        severity: str | None = None,
    ) -> Finding:
        """A finding of this rule at `path:line`."""
        return Finding(
            path,
            line,
            self.id,
            message,
            fix=fix,
            severity=severity or self.severity,
            col=col or (1 if line else 0),
            evidence=evidence,
            name=self.name,
        )

    def at_ref(self, path: str, ref, message: str, **kw) -> Finding:
        """A finding at an import or registration `ref` (anything with `line` and `col`)."""
        return self.at(path, ref.line, message, col=ref.col, **kw)

    def run(self, ctx) -> Iterable[Finding]:
        return self.check(ctx, self)


def parse_doc(doc: str) -> tuple[str, str, str, dict[str, str]]:
    """Split a rule module docstring into id, name, summary and its fixed sections."""
    lines = doc.strip().splitlines()
    m = _HEAD.match(lines[0].strip())
    if not m:
        raise ValueError(f"rule docstring must start with 'ID name: summary': {lines[0]!r}")
    sections: dict[str, list[str]] = {}
    current = None
    for line in lines[1:]:
        if line.startswith("## "):
            current = line[3:].strip()
            sections[current] = []
        elif current is not None:
            sections[current].append(line)
    out = {k: "\n".join(v).strip() for k, v in sections.items()}
    missing = [s for s in SECTIONS if not out.get(s)]
    if missing or list(out) != list(SECTIONS):
        raise ValueError(f"rule {m['id']} must have sections {SECTIONS}, got {list(out)}")
    return m["id"], m["name"], m["summary"], out


def make_rule(doc: str, check: Callable, severity: str) -> Rule:
    """Build a rule from its module docstring and check function."""
    rid, name, summary, sections = parse_doc(doc)
    return Rule(rid, name, severity, summary, sections, check)
