"""The dry run's result on a real tree, judged statically: old names left, own imports
that do not resolve (before vs after), and modules whose import no longer resolves.

    .venv/bin/python bench/rewrite_result_real.py                # SGLang 0.5.15 + its plan
    .venv/bin/python bench/rewrite_result_real.py REPO PLAN      # any tree and plan

The ChangeSet is materialized into a scratch copy (nothing is written to REPO); the old
names are counted with the one `OldNames` authority on every text file of the result;
imports are resolved with verify's `imports-resolve` query on an index of each tree. An
import broken at BASE stays broken after (it is counted, not new): `new` counts the
unresolved imports of the result whose relocated BASE counterpart resolved. Run by hand.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from migrate.index import build_index  # noqa: E402
from migrate.oldnames import OldNames  # noqa: E402
from migrate.pipeline import prepare  # noqa: E402
from migrate.rewrite.engine import plan_changes  # noqa: E402
from migrate.verify.checks.imports import unresolved  # noqa: E402
from migrate.verify.codetree import CodeTree  # noqa: E402


def main(repo: Path, plan: Path) -> None:
    from helpers import init_repo
    from rewrite_helpers import apply_changeset

    tmp = Path(tempfile.mkdtemp(prefix="rewrite-result-"))
    try:
        base = tmp / "base"
        shutil.copytree(repo, base, ignore=shutil.ignore_patterns(".complete", ".git"))
        init_repo(base)
        t0 = time.perf_counter()
        prep = prepare(plan, base)
        cs = plan_changes(prep)
        t1 = time.perf_counter()
        out = tmp / "out"
        shutil.copytree(base, out, ignore=shutil.ignore_patterns(".git"))
        apply_changeset(out, prep, cs)
        names = OldNames(prep.relocation, prep.plan)
        left = []
        for p in sorted(out.rglob("*")):
            if p.is_file():
                try:
                    text = p.read_text("utf-8")
                except UnicodeDecodeError:
                    continue
                left += [(p.relative_to(out).as_posix(), h) for h in names.find(text)]
        before = unresolved(CodeTree(prep.index))
        after = unresolved(CodeTree(build_index(out, prep.plan.roots)))
        rel = prep.relocation

        def key(module: str, name: str) -> tuple[str, str]:
            return (rel.dotted(module) or module, name)

        was = {key(m, n) for _, _, m, n in before}
        new = [u for u in after if (u[2], u[3]) not in was]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"plan {plan.name} on {repo}: {len(cs.moves)} file moves, {len(cs.edits)} edits")
    print(f"prepare + plan_changes: {t1 - t0:.1f} s")
    print(f"old names left: {len(left)}")
    for path, hit in left[:20]:
        print(f"  {path}: {hit}")
    print(f"unresolved own imports: before {len(before)}, after {len(after)}, new {len(new)}")
    for path, line, module, name in new[:40]:
        print(f"  NEW {path}:{line}: {module}" + (f" has no {name}" if name else ""))


if __name__ == "__main__":
    if len(sys.argv) == 3:
        main(Path(sys.argv[1]), Path(sys.argv[2]))
    else:
        from realtrees import sglang_tree

        main(sglang_tree("0.5.15"), ROOT / "plans" / "sglang-0.5.15-jit-to-ops.yaml")
