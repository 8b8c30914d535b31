"""Entry-point GROUP names are contract strings, not module references (trial23 T37).

A group that reads like a moved package (`markdown.extensions`) is the name third-party
plugins register under: renaming it loses them silently. The rewrite keeps it with a
warning, the old-name scanners (verify, `stale`) do not report it, and a retirement of the
package is not refused for it; entry-point VALUES (`pkg.mod:obj`) still follow. The
rewrite forms themselves: golden/rewrite/text-entry-point-group-kept.
"""

from __future__ import annotations

import shutil

from click.testing import CliRunner
from helpers import GOLDEN, git, init_repo

from migrate.cli import main

CASE = GOLDEN / "rewrite" / "text-entry-point-group-kept"


def _repo(tmp_path):
    repo = tmp_path / "repo"
    shutil.copytree(CASE / "before", repo)
    init_repo(repo)
    return repo, git(repo, "rev-parse", "HEAD").strip()


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_kept_groups_pass_verify_and_stale(tmp_path):
    repo, base = _repo(tmp_path)
    res = run("apply", str(CASE / "plan.yaml"), "--repo", str(repo))
    assert res.exit_code == 0, res.output
    assert 'entry_points(group="pkg.plugins")' in (repo / "pkg/loader.py").read_text()
    toml = (repo / "pyproject.toml").read_text()
    assert '[project.entry-points."pkg.plugins"]\nfoo = "pkg.ext.foo:Foo"' in toml
    res = run("verify", f"{base}..HEAD", "--no-wheel", "-q", "--repo", str(repo))
    assert res.exit_code == 0, res.output
    res = run("stale", str(CASE / "plan.yaml"), "--repo", str(repo))
    assert res.exit_code == 0, res.output


def test_retiring_the_package_is_not_refused_for_its_group_name(tmp_path):
    repo, _ = _repo(tmp_path)
    plan = tmp_path / "retire.yaml"
    plan.write_text(
        "version: 1\nmoves:\n  - from: pkg.plugins.foo\n    to: pkg.ext.foo\n"
        "delete: [pkg.plugins]\n"
    )
    res = run("run", str(plan), "--dry-run", "--repo", str(repo))
    assert res.exit_code == 0, res.output
    assert "error" not in res.output


COMPUTED = "text-entry-point-group-computed-kept"


def test_a_constant_or_computed_group_is_kept_with_a_warning(make_repo, tmp_path):
    """T37's rest: a group passed through a module constant (`group=GROUP`) or computed
    (f-string, `+`, `%`, `.format`) keeps its value; each one that can equal the moved
    package's name gets a warning, also in a file that spells no old name (pkg/other.py).
    Executed (check() asserts every group is still `pkg.plugins`) and run twice. (Before:
    `GROUP = "pkg.plugins"` became "pkg.ext", and the computed ones passed silently.)"""
    from rewrite_helpers import run_golden_case

    _, cs, out, _ = run_golden_case(make_repo, tmp_path, COMPUTED)
    warned = sorted((n.pos.file, n.pos.line) for n in cs.notes if "entry-point group" in n.message)
    assert warned == [("pkg/loader.py", line) for line in (6, 18, 19, 20, 21, 22)] + [
        ("pkg/other.py", 11),
        ("pyproject.toml", 5),
    ]
    assert 'GROUP = "pkg.plugins"' in (out / "pkg/loader.py").read_text()


def test_kept_computed_groups_pass_verify_and_stale(tmp_path):
    case = GOLDEN / "rewrite" / COMPUTED
    repo = tmp_path / "repo"
    shutil.copytree(case / "before", repo)
    init_repo(repo)
    base = git(repo, "rev-parse", "HEAD").strip()
    res = run("apply", str(case / "plan.yaml"), "--repo", str(repo))
    assert res.exit_code == 0, res.output
    res = run("verify", f"{base}..HEAD", "--no-wheel", "-q", "--repo", str(repo))
    assert res.exit_code == 0, res.output
    res = run("stale", str(case / "plan.yaml"), "--repo", str(repo))
    assert res.exit_code == 0, res.output
