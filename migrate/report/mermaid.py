"""The moves as a Mermaid `graph LR`: legacy packages on the left, groups on the right.

GitHub renders ```mermaid blocks in PR comments; node ids are generated (labels carry
the dotted names) so no package name can break the syntax.
"""

from __future__ import annotations

from migrate.report.data import MoveEdge


def _label(text: str) -> str:
    return text.replace('"', "'")


def graph(edges: list[MoveEdge]) -> str:
    """Mermaid source; one node per legacy package and per destination, edges weighted."""
    srcs = sorted({e.src for e in edges})
    dsts = sorted({e.dst for e in edges})
    sid = {s: f"L{i}" for i, s in enumerate(srcs)}
    did = {d: f"G{i}" for i, d in enumerate(dsts)}
    lines = ["graph LR"]
    lines += [f'  {sid[s]}["{_label(s)}"]' for s in srcs]
    lines += [f'  {did[d]}["{_label(d)}"]' for d in dsts]
    for e in edges:
        files = f"{e.files} file{'s' if e.files != 1 else ''}"
        lines.append(f"  {sid[e.src]} -->|{files}| {did[e.dst]}")
    if srcs:
        lines.append("  classDef legacy fill:#fff5f5,stroke:#d73a49")
        lines.append("  classDef group fill:#f0fff4,stroke:#28a745")
        lines.append(f"  class {','.join(sid.values())} legacy")
        lines.append(f"  class {','.join(did.values())} group")
    return "\n".join(lines)
