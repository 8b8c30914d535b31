"""`migrate verify`: reproduce step commits; a hand edit in a mechanical commit is the residual."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import git
from test_apply import PLAN, full_changeset, make_sample

from migrate.git_steps import apply_plan
from migrate.verify.reproduce import reproduce


@pytest.fixture
def applied(make_repo, tmp_path, monkeypatch) -> tuple[Path, str, Path]:
    repo = make_sample(make_repo)
    plan = tmp_path / "plan.yaml"
    plan.write_text(PLAN)
    base = git(repo, "rev-parse", "HEAD").strip()
    apply_plan(plan, repo, engine=full_changeset)
    # A plan outside the repository is recorded by file name (and hash) only: verify
    # finds it from where it is run, as a user runs it beside the plan.
    monkeypatch.chdir(tmp_path)
    return repo, base, plan


def rebuild_with_hand_edit(repo: Path, base: str, step: str, path: str, old: str, new: str):
    """Replay base..HEAD, changing `path` inside the `step` commit (like `commit --amend`)."""
    shas = git(repo, "rev-list", "--reverse", f"{base}..HEAD").split()
    git(repo, "checkout", "-q", "--detach", base)
    for sha in shas:
        git(repo, "cherry-pick", "--allow-empty", sha)
        if f"Migrate-Step: {step}" in git(repo, "log", "-1", "--format=%B"):
            p = repo / path
            p.write_bytes(p.read_bytes().replace(old.encode(), new.encode()))
            git(repo, "commit", "-q", "-a", "--amend", "--no-edit")


def test_every_step_commit_reproduces(applied):
    repo, base, _ = applied
    results = reproduce(repo, base, "HEAD", engine=full_changeset)
    assert [c.step for c in results] == [
        "relocate",
        "code",
        "string",
        "prose",
        "tests",
        "delete",
        "blame-ignore-revs",
    ]
    assert all(c.status == "PASS" for c in results), [c.message for c in results]


def test_a_hand_edit_in_the_code_commit_is_its_residual(applied):
    repo, base, _ = applied
    rebuild_with_hand_edit(repo, base, "code", "pkg/user.py", "print(f())", "print(f() + 1)")
    results = {c.step: c for c in reproduce(repo, base, "HEAD", engine=full_changeset)}
    code = results["code"]
    assert code.status == "FAIL" and "pkg/user.py:3" in code.message
    assert "-print(f())\n+print(f() + 1)\n" in code.residual_diff
    # the later commits carry the edit forward and are still mechanical
    assert {s: c.status for s, c in results.items() if s != "code"} == dict.fromkeys(
        ["relocate", "string", "prose", "tests", "delete"], "PASS"
    ) | {"blame-ignore-revs": "FAIL"}  # it lists the SHAs of the original commits


def test_a_hand_edit_in_the_relocate_commit_fails_it(applied):
    repo, base, _ = applied
    rebuild_with_hand_edit(repo, base, "relocate", "pkg/new/run.sh", "echo hi", "echo bye")
    results = {c.step: c for c in reproduce(repo, base, "HEAD", engine=full_changeset)}
    assert results["relocate"].status == "FAIL"
    assert "+echo bye" in results["relocate"].residual_diff
    assert results["code"].status == "PASS"


def test_a_changed_plan_fails_every_commit(applied):
    repo, base, plan = applied
    plan.write_text(PLAN + "# edited\n")
    results = reproduce(repo, base, "HEAD", engine=full_changeset)
    assert results and all(c.status == "FAIL" and "sha256:" in c.message for c in results)


def test_a_failure_names_an_engine_change(applied):
    repo, base, _ = applied
    assert "Migrate-Engine: " in git(repo, "log", "-1", "--format=%B", "HEAD")

    def changed_engine(prep):
        cs = full_changeset()
        cs.edits = [e for e in cs.edits if e.kind != "prose"]
        return cs

    results = {
        c.step: c
        for c in reproduce(repo, base, "HEAD", engine=changed_engine, fingerprint="000000000000")
    }
    assert results["prose"].status == "FAIL"
    assert "the engine changed since" in results["prose"].message


def test_a_cache_kept_across_calls_changes_no_result(applied):
    """The mutation benchmark verifies many HEADs of one migration with `base_cache` (BASE
    and unchanged files parsed once); each result must be what a plain verify says."""
    from migrate.verify import verify

    repo, base, plan = applied
    cache: dict = {}

    def both() -> tuple:
        args = (repo, f"{base}..HEAD", str(plan))
        kw = {"wheel_check": False, "allow_foreign": True, "engine": full_changeset}
        plain = verify(*args, **kw)
        cached = verify(*args, **kw, base_cache=cache)
        return plain.to_dict(), cached.to_dict()

    plain, cached = both()
    assert cached == plain
    user = repo / "pkg" / "user.py"
    user.write_text(user.read_text() + "from pkg.old.mod import gone\n")  # a stale import
    git(repo, "commit", "-q", "-am", "stale import on top")
    plain, cached = both()
    assert cached == plain
    failed = {c["name"] for c in cached["static_checks"] if c["status"] == "FAIL"}
    assert "imports-resolve" in failed
    assert any(k[0] == "facts-memo" and v for k, v in cache.items() if isinstance(k, tuple))
