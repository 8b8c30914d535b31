"""Dry-run presentation: summary, git-style unified diff (checked with `git apply`), JSON."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import GOLDEN, assert_golden, write_tree
from prep_helpers import BASE_TREE, prepared

from migrate.changes import ChangeSet, Edit, FileMove
from migrate.cli import main
from migrate.errors import Diagnostic, Pos
from migrate.git_steps import plan_changeset
from migrate.pipeline import prepare
from migrate.present import SCHEMA, summary, to_json, unified_diff
from migrate.present.diff import blob_id, similarity
from migrate.rewrite.spans import make_edit

GOLDEN_DIR = GOLDEN / "present"

FILES = {
    "docs/kernels.md": "# Kernels\r\nUse sglang.jit_kernel.norm.\r\n",
    "ci.yml": "run: pytest test/registered/kernels/test_rope.py",  # no newline at end
    "python/sglang/jit_kernel/legacy.py": "OLD = 1\n",
}
PLAN = """\
version: 1
roots: [python, .]
moves:
  - from: sglang.jit_kernel.norm
    to: sglang.kernels.ops.layernorm.norm
  - from: sglang.jit_kernel.rope
    to: sglang.kernels.ops.attention.rope
"""


def golden(name: str, actual: str) -> None:
    """Compare with golden/present/<name>."""
    assert_golden(GOLDEN_DIR / name, actual)


def _edit(prep, path, old_path, needle, new, kind, applicability="safe"):
    text = prep.index.text(old_path)
    start = text.index(needle)
    return make_edit(
        path, text, start, start + len(needle), new, kind, f"{needle} moved", applicability
    )


@pytest.fixture
def scene(make_repo, tmp_path):
    prep = prepared(make_repo, tmp_path, FILES, plan=PLAN)
    prep.plan = type(prep.plan)(**{**prep.plan.__dict__, "path": "plans/demo.yaml"})
    norm_new = "python/sglang/kernels/ops/layernorm/norm.py"
    cs = ChangeSet(
        moves=[
            FileMove("python/sglang/jit_kernel/norm.py", norm_new),
            FileMove(
                "python/sglang/jit_kernel/rope.py", "python/sglang/kernels/ops/attention/rope.py"
            ),
        ],
        edits=[
            _edit(
                prep,
                norm_new,
                "python/sglang/jit_kernel/norm.py",
                "return x",
                "return x  # moved",
                "code",
            ),
            _edit(
                prep,
                "docs/kernels.md",
                "docs/kernels.md",
                "sglang.jit_kernel.norm",
                "sglang.kernels.ops.layernorm.norm",
                "prose",
            ),
            _edit(
                prep,
                "ci.yml",
                "ci.yml",
                "test/registered/kernels/test_rope.py",
                "test/registered/kernels/ops/attention/test_rope.py",
                "code",
                "review",
            ),
        ],
        writes={"python/sglang/kernels/ops/layernorm/extra.py": ("code", "X = 2\n")},
        removals={"python/sglang/jit_kernel/legacy.py": "delete"},
        notes=[Diagnostic(Pos("ci.yml", 1, 6), "check the CI shard", "warning")],
    )
    return prep, cs


def test_summary_golden(scene):
    prep, cs = scene
    text = summary(cs, prep)
    golden("summary.txt", text)
    assert "review (1):" in text and "ci.yml:1:13" in text


def test_json_golden_and_schema(scene):
    prep, cs = scene
    data = to_json(cs, prep)
    assert data["schema"] == SCHEMA == "migrate.dryrun/1"
    assert data["steps"] == ["relocate", "code", "prose", "delete"]
    assert data["counts"]["edits"] == {"code": 2, "string": 0, "prose": 1}
    assert data["per_step"]["relocate"]["pure_renames"] == 1
    golden("dryrun.json", json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def test_diff_golden_and_git_applies_it(scene):
    prep, cs = scene
    patch = unified_diff(cs, prep.index)
    golden("diff.patch", patch)
    assert "similarity index 100%\nrename from python/sglang/jit_kernel/rope.py\n" in patch
    assert "\\ No newline at end of file\n" in patch
    repo = prep.index.root
    (repo.parent / "change.patch").write_bytes(patch.encode("utf-8"))
    subprocess.run(
        ["git", "apply", "--index", str(repo.parent / "change.patch")],
        cwd=repo,
        check=True,
        capture_output=True,
    )
    assert not (repo / "python/sglang/jit_kernel/rope.py").exists()
    new_norm = (repo / "python/sglang/kernels/ops/layernorm/norm.py").read_text()
    assert new_norm == "def rmsnorm(x):\n    return x  # moved\n"
    assert (repo / "docs/kernels.md").read_bytes() == (
        b"# Kernels\r\nUse sglang.kernels.ops.layernorm.norm.\r\n"
    )
    assert (repo / "python/sglang/kernels/ops/layernorm/extra.py").read_text() == "X = 2\n"
    assert not (repo / "python/sglang/jit_kernel/legacy.py").exists()


def test_diff_index_lines_are_git_blob_ids(scene):
    prep, cs = scene
    patch = unified_diff(cs, prep.index)
    repo = prep.index.root
    want = subprocess.run(
        ["git", "hash-object", "ci.yml"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout[:7]
    assert blob_id(prep.index.text("ci.yml")) == want
    assert f"index {want}.." in patch


def test_diff_index_lines_are_sha256_blob_ids_in_a_sha256_repository(tmp_path):
    """A repository made with `git init --object-format=sha256` names blobs by SHA-256:
    the dry run's `index` lines are that repository's ids (they showed SHA-1 ones)."""
    repo = tmp_path / "repo"
    write_tree(repo, {**BASE_TREE, **FILES})
    subprocess.run(["git", "init", "-q", "--object-format=sha256", str(repo)], check=True)
    who = ("-c", "user.name=t", "-c", "user.email=t@example.invalid")
    for args in (("add", "-A"), (*who, "commit", "-qm", "base")):
        subprocess.run(["git", *args], cwd=repo, check=True)
    plan = tmp_path / "plan.yaml"
    plan.write_text(PLAN)
    prep = prepare(plan, repo)
    edit = _edit(prep, "ci.yml", "ci.yml", "test/registered", "test/moved", "code")
    patch = unified_diff(ChangeSet(edits=[edit]), prep.index)
    ids = [
        subprocess.run(["git", "hash-object", "--stdin"], input=text.encode(), cwd=repo,
                       capture_output=True, check=True).stdout.decode()[:7]
        for text in (FILES["ci.yml"], FILES["ci.yml"].replace("test/registered", "test/moved"))
    ]  # fmt: skip
    assert f"index {ids[0]}..{ids[1]} 100644\n" in patch, patch


def test_similarity():
    assert similarity("a\nb\n", "a\nb\n") == 100
    assert 0 < similarity("a\nb\nc\nd\n", "a\nb\nc\nX\n") < 100


def test_empty_changeset(scene):
    prep, _ = scene
    assert "nothing to do" in summary(ChangeSet(), prep)
    assert unified_diff(ChangeSet(), prep.index) == ""
    assert to_json(ChangeSet(), prep)["steps"] == []


# -- the CLI ------------------------------------------------------------------------------


@pytest.fixture
def cli_repo(make_repo, tmp_path):
    prep = prepared(make_repo, tmp_path, {}, plan=PLAN)
    return Path(prep.index.root), Path(prep.plan.path)


def moves_only(prep, durations=None):
    """The pre-engine fallback, so these tests do not depend on the engine's state."""
    return ChangeSet(moves=[FileMove(o, n) for o, n in sorted(prep.relocation.files.items())])


def test_cli_dry_run_text_and_diff(cli_repo):
    repo, plan = cli_repo
    res = CliRunner().invoke(
        main, [str(plan), "--dry-run", "--repo", str(repo), "--diff"], obj=moves_only
    )
    assert res.exit_code == 0, res.output
    assert "relocate" in res.output and "2 moves (2 pure renames, 0 with edits)" in res.output
    assert "rename to python/sglang/kernels/ops/layernorm/norm.py" in res.output


def test_cli_dry_run_json(cli_repo):
    repo, plan = cli_repo
    res = CliRunner().invoke(
        main,
        ["run", str(plan), "--dry-run", "--repo", str(repo), "--format", "json", "--diff"],
        obj=moves_only,
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["schema"] == "migrate.dryrun/1"
    assert len(data["moves"]) == 2 and data["diff"].startswith("diff --git")


def test_cli_dry_run_markdown_preview_with_diff(cli_repo):
    repo, plan = cli_repo
    args = [str(plan), "--dry-run", "--repo", str(repo), "--format", "md", "--diff"]
    res = CliRunner().invoke(main, args, obj=moves_only)
    assert res.exit_code in (0, 1), res.output
    assert res.output.startswith("## ")
    assert "```diff\ndiff --git" in res.output


def test_cli_error_notes_exit_1(cli_repo):
    repo, plan = cli_repo

    def with_error(prep, durations=None):
        cs = moves_only(prep)
        cs.notes.append(Diagnostic(Pos(str(plan), 3, 5), "implicit group", "error"))
        return cs

    res = CliRunner().invoke(main, [str(plan), "--dry-run", "--repo", str(repo)], obj=with_error)
    assert res.exit_code == 1
    assert "error: implicit group" in res.output


def test_cli_format_needs_dry_run(cli_repo):
    repo, plan = cli_repo
    res = CliRunner().invoke(main, [str(plan), "--repo", str(repo), "--format", "json"])
    assert res.exit_code == 2
    assert "--dry-run" in res.output


def test_edit_type_is_changes_edit(scene):
    _, cs = scene
    assert all(isinstance(e, Edit) for e in cs.edits)


def test_sample_dry_run_diff_applies_with_git(sample_repo):
    """End to end: the engine's whole change on kernels_sample, as a patch git accepts."""
    prep = prepare(
        Path(__file__).resolve().parent.parent / "plans/sample-jit-to-ops.yaml", sample_repo
    )
    patch = unified_diff(plan_changeset(prep), prep.index)
    (sample_repo.parent / "sample.patch").write_bytes(patch.encode("utf-8"))
    subprocess.run(
        ["git", "apply", "--index", str(sample_repo.parent / "sample.patch")],
        cwd=sample_repo,
        check=True,
        capture_output=True,
    )
    assert not (sample_repo / "python/sglang/jit_kernel").exists()
    assert (sample_repo / "python/sglang/kernels/ops/layernorm/norm.py").exists()
