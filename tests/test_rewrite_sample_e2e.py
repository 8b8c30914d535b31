"""End to end on kernels_sample/: the whole sample plan applied to a scratch copy.

No old name is left in Python code (except the computed name the engine flags), every
module imports in a fresh interpreter, every KernelSpec target resolves, the sample's own
tests pass at their new places, and the engine finds nothing more to do on its output.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from helpers import PLANS, SAMPLE
from rewrite_helpers import apply_changeset

from migrate.index import build_index
from migrate.pipeline import prepare
from migrate.rewrite import scan
from migrate.rewrite.engine import plan_changes
from migrate.rewrite.fix_mode import fix_changes

IMPORT_ALL = """
import importlib, pathlib
bad = []
for p in sorted(pathlib.Path("python").rglob("*.py")):
    parts = p.relative_to("python").with_suffix("").parts
    parts = parts[:-1] if parts[-1] == "__init__" else parts
    try:
        importlib.import_module(".".join(parts))
    except Exception as exc:
        bad.append(f"{'.'.join(parts)}: {exc!r}")
import sglang.kernels.ops  # registers every group
from sglang.kernels.registry import list_kernels, resolve_target
for spec in list_kernels():
    try:
        resolve_target(spec.target)
    except Exception as exc:
        bad.append(f"{spec.op} -> {spec.target}: {exc!r}")
print("\\n".join(bad) or "OK")
"""


def _env() -> dict:
    env = dict(os.environ, PYTHONPATH="python", TRITON_INTERPRET="1", OMP_NUM_THREADS="1")
    env.pop("PYTEST_XDIST_WORKER", None)
    return env


@pytest.fixture(scope="module")
def migrated(tmp_path_factory):
    from helpers import init_repo

    src = tmp_path_factory.mktemp("sample") / "kernels_sample"
    shutil.copytree(SAMPLE, src, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    init_repo(src)
    prep = prepare(PLANS / "sample-jit-to-ops.yaml", src)
    cs = plan_changes(prep)
    out = tmp_path_factory.mktemp("out") / "kernels_sample"
    shutil.copytree(src, out, ignore=shutil.ignore_patterns(".git"))
    apply_changeset(out, prep, cs)
    return prep, cs, out


def test_no_old_name_left_in_python(migrated):
    prep, cs, out = migrated
    regex = scan.old_name_regex(prep.relocation, prep.plan)
    flagged = {n.pos.file for n in cs.notes}
    left = []
    for path in sorted(out.rglob("*.py")):
        rel = path.relative_to(out).as_posix()
        for m in regex.finditer(path.read_text(encoding="utf-8")):
            if rel not in flagged:
                left.append(f"{rel}: {m.group(0)}")
    assert left == []
    # Nothing in the sample needs a person: no error notes.
    assert [str(n) for n in cs.notes if n.severity == "error"] == []


def test_every_module_imports_and_every_target_resolves(migrated):
    _, _, out = migrated
    res = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL],
        cwd=out,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert res.stdout.strip().splitlines()[-1:] == ["OK"], res.stdout + res.stderr


def test_sample_tests_pass_at_new_locations(migrated):
    _, cs, out = migrated
    assert (out / "test/registered/kernels/ops/layernorm/test_rmsnorm.py").exists()
    res = subprocess.run(
        [sys.executable, "-m", "pytest", "test", "-q", "-x", "-p", "no:cacheprovider"],
        cwd=out,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert res.returncode == 0, res.stdout[-4000:] + res.stderr[-2000:]


def test_engine_finds_nothing_more_on_its_output(migrated):
    prep, _, out = migrated
    again = fix_changes(prep.plan, build_index(out, prep.plan.roots))
    py = [e for e in again.edits if e.path.endswith(".py")]
    assert py == []
