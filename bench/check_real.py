"""Run `migrate check` on a real SGLang wheel's tree and print timing and findings.

    python bench/check_real.py 0.5.17          # markdown rows for bench/check.md
    python bench/check_real.py 0.5.17 --json

The wheel is downloaded once with `pip download --no-deps` and cached under
~/.cache/migrate (tests/realtrees.py); nothing is committed.
"""

from __future__ import annotations

import json
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from realtrees import sglang_tree  # noqa: E402

from migrate.rules import run_rules  # noqa: E402
from migrate.rules.load import repo_tree  # noqa: E402


def main(version: str, as_json: bool) -> None:
    root = sglang_tree(version)
    wall, cpu = time.perf_counter(), time.process_time()
    _, tree = repo_tree(root)
    timings: dict[str, float] = {}
    findings = run_rules(tree, timings=timings)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    child = resource.getrusage(resource.RUSAGE_CHILDREN)  # git ls-files
    cpu += child.ru_utime + child.ru_stime
    if as_json:
        print(
            json.dumps(
                {
                    "files": len(tree.paths),
                    "wall_s": wall,
                    "cpu_s": cpu,
                    "findings": [f.to_dict() for f in findings],
                },
                indent=2,
            )
        )
        return
    print(f"files: {len(tree.paths)}; wall {wall:.2f} s; CPU {cpu:.2f} s")
    print("| rule | sev | location | message |\n|---|---|---|---|")
    for f in findings:
        msg = f.message.replace("|", "\\|")
        print(f"| {f.rule} | {f.severity} | `{f.pos.file}:{f.pos.line}` | {msg} |")


if __name__ == "__main__":
    main(sys.argv[1], "--json" in sys.argv)
