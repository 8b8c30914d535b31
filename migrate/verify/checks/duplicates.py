"""One module, one name: no Python file reachable under two module names (a symlink into
the package tree) and no duplicated module copy (identical files defining the same
top-level names, i.e. a singleton split in two: two buffer registries instead of one)."""

from __future__ import annotations

import hashlib
import os
from collections import defaultdict

from migrate.verify.context import VerifyContext
from migrate.verify.result import CheckResult, Finding

NAME = "single-module"


def check(ctx: VerifyContext) -> CheckResult:
    tree = ctx.head
    index = tree.index
    findings = []
    by_real: dict[str, list[str]] = defaultdict(list)
    for module, path in index.modules.items():
        by_real[os.path.realpath(index.root / path)].append(module)
    for names in sorted(by_real.values()):
        if len(names) > 1:
            path = index.modules[sorted(names)[0]]
            findings.append(
                Finding(path, 0, NAME, f"one file importable as {', '.join(sorted(names))}")
            )
    by_content: dict[str, list[str]] = defaultdict(list)
    for module, path in index.modules.items():
        if index.files[path].is_symlink:
            continue
        facts = tree.module_facts(module)
        if facts is None or not facts.names:
            continue
        digest = hashlib.sha256(index.read_bytes(path)).hexdigest()
        by_content[digest].append(module)
    for modules in by_content.values():
        paths = sorted(index.modules[m] for m in modules)
        if len(paths) > 1 and (not ctx.touched or ctx.touched & set(paths)):
            if _copies_at_base(ctx, paths):
                continue  # the files were one text at BASE: the copy is not the migration's
            findings.append(
                Finding(
                    paths[0],
                    0,
                    NAME,
                    f"identical module copies: {', '.join(paths)}",
                    "keep one module and import it everywhere",
                )
            )
    return CheckResult.of(NAME, findings)


def _copies_at_base(ctx: VerifyContext, paths: list[str]) -> bool:
    """Whether the BASE files of HEAD `paths` were already one text (each a Python file
    at BASE): identical users a move respelled alike stay copies of each other."""
    if ctx.base is None:
        return False
    base_index = ctx.base.index
    digests = set()
    for path in paths:
        (old,) = ctx.base_paths([path])
        if old not in base_index.files:
            return False
        digests.add(hashlib.sha256(base_index.read_bytes(old)).hexdigest())
    return len(digests) == 1
