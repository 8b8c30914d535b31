"""Replay SGLang's 0.5.20 -> 0.5.21 regrouping on the real wheel tree with `migrate`.

    .venv/bin/python bench/regroup_real.py [--readme] [--verify] [OLD NEW]

Run by hand (the slow test tests/test_regroup_real.py runs the same replay). Both wheels
are downloaded once and cached (tests/realtrees.py). The move map is built from the two
trees by content (tests/regroup_real.py): 0.5.21 re-moved the quantization GEMMs and
their 163 tuning configs to `gemm`, dissolved most of `kimi_k3` (its `sp_collective`
configs to `communication/configs/sp_collective/`, below their moved loader) and retired
the `minicpm_sala` group into `attention`. The plan is written to a temporary file, the
older tree is committed as BASE, and `migrate --dry-run`, `migrate apply` (and with
--verify, `migrate verify --no-wheel`) run in their own processes under /usr/bin/time.
The result is then judged by text, imports, rules and loader expressions, never by the
engine's reasoning. Prints a Markdown section; --readme writes it into bench/README.md
(replacing only this script's section). No timing asserts.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from bench_apply_verify import git, timed  # noqa: E402
from realtrees import sglang_copy, sglang_tree  # noqa: E402
from regroup_real import plan_text, result_checks  # noqa: E402

MIGRATE = ROOT / ".venv" / "bin" / "migrate"
BEGIN = "<!-- regroup_real:begin -->"
END = "<!-- regroup_real:end -->"


def replay(old: str, new: str, work: Path, verify: bool = False) -> dict:
    """Build the plan from the wheels, apply it to a repo of `old`, judge the result."""
    from migrate.pipeline import prepare

    old_tree, new_tree = sglang_tree(old), sglang_tree(new)
    text, facts = plan_text(old_tree, new_tree)
    plan = work / f"regroup-{old}-to-{new}.yaml"
    plan.write_text(text)
    repo = sglang_copy(old, work / "repo")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", f"sglang {old} wheel tree")
    base = git(repo, "rev-parse", "HEAD")
    prep = prepare(plan, repo)
    moved = dict(prep.relocation.moved_modules)
    old_ops = list(prep.derived_op_ids)
    configs = [n for o, n in prep.relocation.files.items() if o.endswith(".json")]
    runs = {"dry run": timed([str(MIGRATE), str(plan), "--dry-run"], cwd=repo)}
    runs["apply"] = timed([str(MIGRATE), "apply", str(plan)], cwd=repo)
    if verify:
        runs["verify --no-wheel"] = timed(
            [str(MIGRATE), "verify", f"{base}..HEAD", "--no-wheel"], cwd=repo
        )
    checks = result_checks(old_tree, repo, moved, old_ops, configs)
    base_checks = result_checks(old_tree, old_tree, moved, old_ops, configs)
    return {
        "facts": facts,
        "moved_modules": len(moved),
        "op_ids": len(old_ops),
        "runs": runs,
        "checks": checks,
        "base": base_checks,
        "commits": git(repo, "log", "--reverse", "--format=%s", f"{base}..HEAD").splitlines(),
    }


def section(old: str, new: str, r: dict) -> str:
    c, b, f = r["checks"], r["base"], r["facts"]
    out = [
        BEGIN,
        f"## Real regrouping replayed: SGLang {old} -> {new} (bench/regroup_real.py)",
        "",
        f"Move map built from the two wheels by content: {f['files']} files in "
        f"{f['entries']} plan entries ({r['moved_modules']} modules), groups removed: "
        f"{', '.join(f['removed']) or 'none'}, packages deleted: "
        f"{', '.join(f['deleted']) or 'none'}. Op ids that followed their kernels to a new "
        f"group: {r['op_ids']}. Commits: {len(r['commits'])} "
        f"({'; '.join(s.split(': ', 1)[-1] for s in r['commits'][:3])}; ...).",
        "",
        "| command | rc | wall s | CPU s | peak RSS MiB |",
        "|---|---|---|---|---|",
    ]
    for name, run in r["runs"].items():
        out.append(
            f"| {name} | {run['rc']} | {run['wall']:.1f} | {run['cpu']:.1f} | "
            f"{run['rss_mib']:.0f} |"
        )
    out += [
        "",
        "| check on the result | result | BASE |",
        "|---|---|---|",
        f"| old module names left (token-bounded, all text files) | "
        f"{c['old_module_names_left']} | {b['old_module_names_left']} |",
        f"| old op ids left (quoted) | {c['old_op_ids_left']} | {b['old_op_ids_left']} |",
        f"| old op ids still registered | {c['old_op_ids_registered']} | "
        f"{b['old_op_ids_registered']} |",
        f"| unresolved absolute sglang imports | {c['unresolved_imports_base']} before, "
        f"{len(c['new_unresolved_imports'])} new | - |",
        f"| unresolved registry targets (KO204) | {c['unresolved_registry_targets']} | "
        f"{c['unresolved_registry_targets_base']} |",
        f"| `_GROUPS` == group directories | {c['groups_equal_dirs']} | {b['groups_equal_dirs']} |",
        f"| `_GROUPS` == README list | {c['groups_equal_readme']} | {b['groups_equal_readme']} |",
        f"| moved configs not below a loader's lookup | "
        f"{len(c['configs_not_where_loader_looks'])} of {c['configs_moved']} | "
        f"{len(b['configs_not_where_loader_looks'])} of {b['configs_moved']} |",
        "",
        "BASE column: the same checks on the unmigrated tree (non-zero counts there show "
        "the checks can fail). Times on the shared 2-core machine, one run each.",
        END,
    ]
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> None:
    args = [a for a in argv if not a.startswith("--")]
    old, new = args if len(args) == 2 else ("0.5.20", "0.5.21")
    with tempfile.TemporaryDirectory() as tmp:
        r = replay(old, new, Path(tmp), verify="--verify" in argv)
    text = section(old, new, r)
    print(text)
    print(json.dumps(r["checks"], indent=1))
    if "--readme" in argv:
        write_section_named(ROOT / "bench" / "README.md", text)


def write_section_named(readme: Path, text: str) -> None:
    """Replace this script's own section of bench/README.md (or append it)."""
    old = readme.read_text() if readme.exists() else "# Benchmarks\n\n"
    if BEGIN in old and END in old:
        head, rest = old.split(BEGIN, 1)
        new = head + text.rstrip("\n") + rest.split(END, 1)[1]
    else:
        new = old.rstrip("\n") + "\n\n" + text
    readme.write_text(new)


if __name__ == "__main__":
    main(sys.argv[1:])
