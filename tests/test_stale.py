"""`migrate stale`: references that raced the migration, with their new names."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import REPO_ROOT
from ruamel.yaml import YAML

from migrate.cli import main

PLAN = """\
version: 1
moves:
  - from: pkg.old
    to: pkg.new
  - from: pkg.util:helper
    to: pkg.helpers
op_ids:
  - from: jit.rmsnorm
    to: layernorm.rmsnorm
delete: [pkg.legacy]
keep_prose: [CHANGELOG.md]
"""


@pytest.fixture
def migrated(make_repo) -> Path:
    return make_repo(
        {
            "plans/p.yaml": PLAN,
            "pkg/__init__.py": "",
            "pkg/new/__init__.py": "",
            "pkg/new/mod.py": "def f():\n    return 1\n",
            "pkg/helpers.py": "def helper():\n    pass\n",
            "pkg/util.py": "X = 1\n",
            "pkg/raced.py": (
                "from pkg.old.mod import f\n"
                "import pkg.new.mod\n"
                "def use_pkg_old_mod():\n"
                "    return 'pkg/old/data/cfg.json'\n"
                "OP = 'jit.rmsnorm'\n"
                "NOT_OP = 'jit.rmsnorm.extra'\n"
                "from pkg.util import helper\n"
                "import pkg.legacy.thing\n"
                "from pkg import (old as o,\n    util)\n"
            ),
            "docs/ok.md": "See pkg.new.mod and can_use_pkg_old.\n",
            "docs/CHANGELOG.md": "Moved pkg.old.mod to pkg.new.mod.\n",
        }
    )


def run(repo: Path, *args: str):
    return CliRunner().invoke(main, ["stale", *args, "--repo", str(repo)])


def test_stale_lists_each_old_reference_with_its_new_name(migrated):
    res = run(migrated, str(migrated / "plans/p.yaml"))
    assert res.exit_code == 1
    lines = [ln for ln in res.output.splitlines() if ln.startswith("pkg/")]
    assert lines == [
        "pkg/raced.py:1: old name pkg.old.mod (now pkg.new.mod)",
        "pkg/raced.py:4: old name pkg/old/data/cfg.json (now pkg/new/data/cfg.json)",
        "pkg/raced.py:5: old name jit.rmsnorm (now layernorm.rmsnorm)",
        "pkg/raced.py:7: old name from pkg.util import helper (now import helper from pkg.helpers)",
        "pkg/raced.py:8: old name pkg.legacy.thing (the plan deletes pkg.legacy: no single "
        "new name, fix by hand)",
        "pkg/raced.py:9: old name from pkg import old (now import pkg.new)",
    ]
    assert "plans/p.yaml" not in res.output and "docs/ok.md" not in res.output
    assert "CHANGELOG" not in res.output  # keep_prose: history keeps old names


def test_stale_checks_only_the_files_given(migrated, monkeypatch):
    monkeypatch.chdir(migrated)
    assert run(migrated, "plans/p.yaml", "docs/ok.md").exit_code == 0
    res = run(migrated, "plans/p.yaml", "docs/ok.md", "pkg/raced.py")
    assert res.exit_code == 1 and "pkg/raced.py:1:" in res.output


def test_stale_needs_a_plan(migrated):
    res = run(migrated, str(migrated / "pkg/raced.py"))
    assert res.exit_code == 2 and "give at least one plan" in res.output


def test_pre_commit_hook_runs_migrate_stale():
    hooks = YAML(typ="safe").load((REPO_ROOT / ".pre-commit-hooks.yaml").read_text())
    hook = next(h for h in hooks if h["id"] == "migrate-stale")
    assert hook["entry"] == "migrate stale" and hook["language"] == "python"


REBOUND = """\
import pkg.new.mod


def by_parameter(pkg):
    return pkg.old.mod.f()


def by_assignment():
    pkg = object()
    return pkg.old.mod


class Holder:
    pkg = None
    KIND = pkg.old.mod


R = [pkg.old.mod.f() for pkg in ()]
LEFT = pkg.old.mod.f()  # a branch's leftover: pkg is the package here
"""


def test_a_chain_whose_head_is_rebound_is_not_stale(make_repo):
    """`migrate stale` reads code chains by binding, as verify's old-names does (trial25
    A3): `pkg.old.mod` where `pkg` is a parameter, an assignment, a class-body name or a
    comprehension target is not the package's module; the same chain through `import
    pkg.new.mod` is."""
    repo = make_repo(
        {
            "plans/p.yaml": PLAN,
            "pkg/__init__.py": "",
            "pkg/new/__init__.py": "",
            "pkg/new/mod.py": "def f():\n    return 1\n",
            "pkg/user.py": REBOUND,
        }
    )
    res = run(repo, str(repo / "plans/p.yaml"))
    lines = [ln for ln in res.output.splitlines() if ln.startswith("pkg/")]
    assert lines == ["pkg/user.py:19: old name pkg.old.mod.f (now pkg.new.mod.f)"], res.output
    assert res.exit_code == 1
