"""`python -m migrate.parity.offline SPEC BASE_TREE HEAD_TREE [--device D] [--json]`.

Runs a saved parity spec on two plain checkouts: needs python, torch, triton and pytest,
not git, libcst or the plan loader.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from migrate.parity import spec
from migrate.parity.check import execute
from migrate.parity.report import render


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m migrate.parity.offline")
    ap.add_argument("spec")
    ap.add_argument("base_tree")
    ap.add_argument("head_tree")
    ap.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto")
    ap.add_argument("--default-device", help="torch default device inside the tests")
    ap.add_argument("--json", dest="as_json", metavar="FILE", help="Also write JSON here.")
    args = ap.parse_args(argv)
    found, revs = spec.load(args.spec)
    trees = {"base": Path(args.base_tree).resolve(), "head": Path(args.head_tree).resolve()}
    result = execute(found, trees, revs, args.device, default_device=args.default_device)
    print(render(result))
    if args.as_json:
        Path(args.as_json).write_text(json.dumps(result.to_dict(), indent=1, sort_keys=True))
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main())
