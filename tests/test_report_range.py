"""`migrate report BASE..HEAD` on real applied migrations in tmp git repos.

The migration is applied for real (`apply_plan`, step commits with trailers); broken
inputs are real too: a later commit that re-adds an old import, a deleted test, and
result objects of verify and parity built from their own dataclasses.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import jsonschema
import pytest
import report_fixtures as rf
from click.testing import CliRunner
from helpers import REPO_ROOT, git

from migrate.cli import main
from migrate.git_steps import apply_plan
from migrate.parity.model import OpResult, ParityResult, SideRun
from migrate.report import Given, collect, collect_range, to_dict, to_markdown, verdict
from migrate.verify.result import CheckResult, CommitCheck, VerifyResult

SCHEMA = json.loads((REPO_ROOT / "docs/report-schema.json").read_text())


@pytest.fixture
def applied(make_repo, tmp_path):
    """(repo, plan, base sha) after `apply_plan` with the fixed fixture ChangeSet."""
    repo = make_repo(rf.FILES)
    plan = rf.write_plan(tmp_path)
    res = apply_plan(plan, repo, engine=rf.changeset)
    assert res.status == "applied"
    return repo, plan, res.base


def _commit(repo: Path, files: dict[str, str | None], msg: str) -> str:
    for rel, text in files.items():
        p = repo / rel
        if text is None:
            git(repo, "rm", "-q", rel)
        else:
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text)
            git(repo, "add", rel)
    git(repo, "commit", "-q", "-m", msg)
    return git(repo, "rev-parse", "HEAD").strip()


def test_clean_migration_needs_review_for_prose_and_patch_target(applied):
    repo, plan, base = applied
    data = collect_range(repo, f"{base}..HEAD", str(plan), wheel_check=False, engine=rf.changeset)
    v = verdict(data)
    assert v.level == "review"
    assert v.reasons[0] == "2 edit(s) need a human (1 prose, 1 string)"
    assert [c.step for c in data.commits] == [
        "relocate",
        "code",
        "string",
        "prose",
        "blame-ignore-revs",
    ]
    assert all(c.plan_sha256 == data.meta.plan_sha256 for c in data.commits)
    assert data.leftovers.status == "ok" and data.leftovers.items == []
    assert data.rules.status == "ok" and data.rules.findings == []
    s = data.summary
    assert (s.modules_moved, s.packages_moved, s.data_files_moved) == (2, 1, 1)
    assert s.edits == {"code": 2, "string": 1, "prose": 1} and s.edits_review == 1
    md = to_markdown(data)
    assert md.startswith("## 🟡 Migration report: **needs review**")
    assert "`python/sglang/srt/patch.py:1` | string (**review**) | patch target string" in md
    jsonschema.validate(to_dict(data), SCHEMA)


def test_plan_found_from_trailer_when_plan_is_in_repo(make_repo):
    repo = make_repo({**rf.FILES, "plans/p.yaml": rf.PLAN})
    res = apply_plan(repo / "plans/p.yaml", repo, engine=rf.changeset)
    data = collect_range(repo, f"{res.base}..HEAD", wheel_check=False, engine=rf.changeset)
    assert data.meta.plan_path == "plans/p.yaml" and not data.plan_errors
    assert data.leftovers.items == []  # the plan file itself names old modules: skipped


def _parity(base: str, head: str) -> ParityResult:
    """A parity result (its own dataclasses) with one op that differs on the CPU."""
    env = {"torch": "2.13.0", "triton": "3.5.1"}
    return ParityResult(
        base=SideRun("BASE", base, env=env),
        head=SideRun("HEAD", head, env=env),
        device_requested="auto",
        device="cpu",
        ops=[
            OpResult(
                "sglang.kernels.ops.layernorm.norm:rmsnorm",
                "sglang.jit_kernel.norm:rmsnorm",
                calls=4,
                identical=3,
                different=1,
                devices=["cpu"],
                status="different",
            )
        ],
    )


def _break(repo: Path, base: str, plan: Path) -> str:
    """After apply: a hand edit passed off as a mechanical step, then a deleted test."""
    sha = hashlib.sha256(Path(plan).read_bytes()).hexdigest()
    _commit(
        repo,
        {"python/sglang/srt/late.py": "from sglang.jit_kernel.norm import rmsnorm  # stale\n"},
        f"late caller\n\nMigrate-Plan: {plan} sha256:{sha}\nMigrate-Step: code\n",
    )
    return _commit(repo, {"test/registered/test_norm.py": None}, "drop a test")


def test_broken_migration_leads_with_each_problem(applied):
    repo, plan, base = applied
    head = _break(repo, base, plan)
    # verify and the inventory diff run for real; parity is given as its result object
    given = Given(parity=_parity(base, head))
    data = collect_range(
        repo, f"{base}..HEAD", str(plan), given, wheel_check=False, engine=rf.changeset
    )
    v = verdict(data)
    assert v.level == "broken"
    md = to_markdown(data)
    lines = md.splitlines()
    assert lines[0] == "## 🔴 Migration report: **broken**"
    text = "\n".join(lines[: lines.index("") + 1 + len(v.reasons)])  # the reason bullets
    assert "does not reproduce from its parent" in text
    assert "stale reference `sglang.jit_kernel.norm` at python/sglang/srt/late.py:1" in text
    assert "lost test case `test_norm` (was in test/registered/test_norm.py)" in text
    assert "parity: `sglang.kernels.ops.layernorm.norm:rmsnorm` differs" in text
    assert "(1 of 4 call(s) on cpu)" in text
    assert "❌ **FAIL**" in md and "```diff" in md
    assert "device: **CPU (Triton interpreter, TRITON_INTERPRET=1): no GPU check ran**" in md
    assert "| `cuda:stage-a` | 1 → 0 | 1 → 0 | 30 | 0 |" in md
    doc = to_dict(data)
    jsonschema.validate(doc, SCHEMA)
    assert doc["verdict"]["level"] == "broken"
    assert doc["leftovers"]["items"][0]["file"] == "python/sglang/srt/late.py"
    rf.check_golden("broken.md", rf.normalise(md, data, repo))


def test_cli_writes_json_and_markdown(applied, tmp_path):
    repo, plan, base = applied
    head = _break(repo, base, plan)
    late = git(repo, "rev-parse", "HEAD~1").strip()
    residual = "--- a/python/sglang/srt/late.py\n+++ b/python/sglang/srt/late.py\n+stale\n"
    verify = VerifyResult(
        base,
        head,
        commits=[CommitCheck(late, "code", str(plan), "FAIL", residual)],
        static_checks=[CheckResult.of("imports", [])],
    )
    parity_json = tmp_path / "parity.json"
    parity_json.write_text(json.dumps(_parity(base, head).to_dict()))
    verify_json = tmp_path / "verify.json"
    verify_json.write_text(json.dumps(verify.to_dict()))
    out = tmp_path / "r.json"
    args = ["report", f"{base}..HEAD", "--repo", str(repo), "--plan", str(plan), "--no-wheel-check"]
    args += ["--parity-json", str(parity_json), "--verify-json", str(verify_json)]
    res = CliRunner().invoke(main, [*args, "--format", "json", "-o", str(out)], obj=rf.changeset)
    assert res.exit_code == 0, res.output
    doc = json.loads(out.read_text())
    jsonschema.validate(doc, SCHEMA)
    assert doc["parity"]["ops"][0]["status"] == "different"
    assert doc["commits"]["items"][-2]["verify"] == "FAIL"
    link = ["--link-base", "https://example.invalid/blob/x"]
    res = CliRunner().invoke(main, [*args, *link, "--fail-on", "broken"], obj=rf.changeset)
    assert res.exit_code == 1, res.output  # the report is written, and CI sees the verdict
    assert res.output.startswith("## 🔴 Migration report: **broken**")
    link = "[`python/sglang/srt/late.py:1`](https://example.invalid/blob/x/python/sglang/srt/late.py#L1)"
    assert link in res.output


def test_plan_hash_mismatch_is_broken(applied, tmp_path):
    repo, plan, base = applied
    other = tmp_path / "other.yaml"
    other.write_text(rf.PLAN + "# edited after apply\n")
    data = collect_range(repo, f"{base}..HEAD", str(other), wheel_check=False, engine=rf.changeset)
    v = verdict(data)
    assert v.level == "broken"
    assert v.reasons[0].startswith("plan error: commits were made by plan sha256:")


def test_missing_plan_is_reported_not_raised(make_repo):
    repo = make_repo({"a.py": "x = 1\n"})
    _commit(repo, {"a.py": "x = 2\n"}, "no trailers")
    data = collect_range(repo, "HEAD~1..HEAD", wheel_check=False)
    v = verdict(data)
    assert v.level == "broken"
    assert "no plan" in v.reasons[0]
    assert any("without a Migrate-Step trailer" in r for r in v.reasons)


def test_cli_reads_check_json_and_can_skip_verify(applied, tmp_path):
    repo, plan, base = applied
    check = CliRunner().invoke(main, ["check", "--repo", str(repo), "--json"])
    assert check.exit_code in (0, 1), check.output
    check_json = tmp_path / "check.json"
    check_json.write_text(check.output)
    args = ["report", f"{base}..HEAD", "--repo", str(repo), "--plan", str(plan), "--no-verify"]
    res = CliRunner().invoke(
        main, [*args, "--check-json", str(check_json), "--format", "json"], obj=rf.changeset
    )
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert doc["checks"]["verify"] == "not_run"
    assert doc["rules"]["findings"] == [
        {k: f[k] for k in ("file", "line", "check", "severity", "message", "fix")}
        for f in json.loads(check.output)["findings"]
    ]
    assert "not run: verify" in " ".join(doc["verdict"]["reasons"])


def test_run_parity_on_request_reports_the_device(applied):
    repo, plan, base = applied
    data = collect_range(
        repo, f"{base}..HEAD", str(plan), run_verify=False, parity_device="cpu", engine=rf.changeset
    )
    assert data.parity.status == "ok" and data.parity.device == "cpu"
    assert data.parity.base == base  # the real ParityResult, pinned to this range
    md = to_markdown(data)
    assert "device: **CPU (Triton interpreter, TRITON_INTERPRET=1): no GPU check ran**" in md
    assert "nothing to compare" in md  # the fixture's modules hold no Triton kernel
    assert "not run: verify" in " ".join(verdict(data).reasons)


def test_a_crashing_stage_is_reported_not_hidden(applied, monkeypatch):
    repo, plan, base = applied

    def boom(*args):
        raise RuntimeError("worktree add failed")

    monkeypatch.setattr(collect, "_run_verify", boom)
    data = collect_range(repo, f"{base}..HEAD", str(plan), engine=rf.changeset)
    v = verdict(data)
    assert data.verify.status == "not_run"
    assert "verify could not run: RuntimeError: worktree add failed" in v.reasons
    assert v.level == "unchecked"  # asked for and not carried out: no evidence either way


def test_report_takes_verifys_spelling_of_no_wheel():
    """`migrate verify ... --no-wheel` and then `migrate report ... --no-wheel` (the same
    choice) said "No such option: --no-wheel" (trial23 T36)."""
    cmd = main.commands["report"]
    for flag in ("--no-wheel", "--no-wheel-check"):
        ctx = cmd.make_context("report", ["a..b", flag], resilient_parsing=True)
        assert ctx.params["no_wheel_check"] is True
