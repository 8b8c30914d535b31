"""Generate docs/rules.md from the rule docstrings.

`python -m migrate.rules.docs > docs/rules.md`
"""

from __future__ import annotations

from migrate.rules.base import SECTIONS
from migrate.rules.registry import all_rules

INTRO = """\
# `migrate check` rules

Generated from the rule modules' docstrings (`migrate/rules/checks/*.py`) by
`python -m migrate.rules.docs > docs/rules.md`; `tests/test_rules_docs.py` fails when
this file and the code disagree. The rules make `kernel-organization.md` executable.

`migrate check [--repo DIR] [--plan PLAN] [--json] [--select ID]` runs them on a checkout
or, with `--plan`, on the tree the plan would produce (nothing is written). Exactly
decidable rules report **errors** (exit status 1); heuristics report **warnings** with
the evidence that triggered them. Every finding has `file:line`, the rule id, the
evidence and, where known, the fix.

A finding the team decides to keep is suppressed where it is, next to the reason:
`# migrate: ignore[KO301]` at the end of the reported line, or
`# migrate: ignore-file[KO403]` anywhere in the file (without `[...]`: every rule).
"""


def render() -> str:
    rules = all_rules()
    out = [INTRO, "| id | name | severity | summary |", "|---|---|---|---|"]
    for r in rules:
        out.append(
            f"| [{r.id}](#{r.id.lower()}-{r.name}) | `{r.name}` | {r.severity} | {r.summary} |"
        )
    for r in rules:
        out += ["", f"## {r.id} {r.name}", "", f"{r.summary} (*{r.severity}*)"]
        for section in SECTIONS:
            out += ["", f"### {section}", "", r.sections[section]]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    print(render(), end="")
