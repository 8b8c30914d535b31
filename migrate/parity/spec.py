"""A saved discovery, so the test runs can happen on a host without git (a GPU machine).

`migrate parity --save-spec S` writes it; `python -m migrate.parity.offline S BASE HEAD`
runs the same comparison on plain checkouts of BASE and HEAD (e.g. `git archive` output).
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from migrate.findings import Finding
from migrate.parity.discover import Discovery
from migrate.parity.model import MovedModule

FORMAT = "migrate.parity.spec/2"  # 2: warnings are migrate.findings.Finding


def save(path: str | Path, found: Discovery, revs: dict[str, tuple[str, str]]) -> None:
    data = {"format": FORMAT, "revs": revs, "discovery": asdict(found)}
    Path(path).write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")


def load(path: str | Path) -> tuple[Discovery, dict[str, tuple[str, str]]]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if data.get("format") != FORMAT:
        raise ValueError(f"{path}: not a {FORMAT} file")
    d = data["discovery"]
    d["modules"] = [MovedModule(**m) for m in d["modules"]]
    d["warnings"] = [Finding.from_dict(w) for w in d["warnings"]]
    revs = {k: tuple(v) for k, v in data["revs"].items()}
    return Discovery(**d), revs
