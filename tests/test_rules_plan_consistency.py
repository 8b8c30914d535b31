"""`migrate check --plan` predicts exactly what `migrate check` says after `migrate apply`."""

from __future__ import annotations

from click.testing import CliRunner

from migrate.cli import main
from migrate.rules import run_rules
from migrate.rules.load import plan_tree, repo_tree


def key(f):
    return (f.pos.file, f.pos.line, f.check, f.message)


def test_prediction_equals_the_applied_tree(sample_repo, tmp_path):
    runner = CliRunner()
    draft = runner.invoke(
        main, ["suggest", "--from", "sglang.jit_kernel", "--repo", str(sample_repo)]
    )
    assert draft.exit_code == 0, draft.output
    plan = tmp_path / "draft.yaml"
    plan.write_text(draft.output)
    predicted = sorted(map(key, run_rules(plan_tree(plan, sample_repo)[0])))
    applied = runner.invoke(main, ["apply", str(plan), "--repo", str(sample_repo)])
    assert applied.exit_code == 0, applied.output
    after = sorted(map(key, run_rules(repo_tree(sample_repo)[1])))
    assert predicted == after
    assert not [k for k in after if k[2] == "KO601"]  # no legacy layout left
