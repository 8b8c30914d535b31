"""Apply on kernels_sample/ is atomic: a failure injected at any point restores every byte."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from test_apply_atomic import POINTS, snapshot, strip_stat
from test_verify_sample import PLAN, cached_engine, fresh_sample

from migrate.cli import main
from migrate.pipeline import prepare


@pytest.fixture(scope="module")
def sample_changes(tmp_path_factory):
    """The real engine's ChangeSet for the sample (cached across the sample test modules)."""
    repo = fresh_sample(tmp_path_factory.mktemp("cs") / "kernels_sample")
    return cached_engine(prepare(PLAN, repo))


@pytest.mark.parametrize("point", POINTS)
def test_sample_failure_at_every_point_leaves_the_repo_byte_identical(
    point, sample_changes, tmp_path, monkeypatch
):
    repo = fresh_sample(tmp_path / "kernels_sample")
    assert set(sample_changes.steps_present()) >= {"relocate", "code", "string", "prose"}
    monkeypatch.setenv("MIGRATE_FAIL_AT", point)
    before = snapshot(repo)
    res = CliRunner().invoke(main, ["apply", str(PLAN), "--repo", str(repo)], obj=cached_engine)
    if point in sample_changes.steps_present() or point not in STEP_POINTS:
        assert res.exit_code == 1, res.output
        assert f"injected failure at {point}" in res.output
    assert strip_stat(snapshot(repo)) == strip_stat(before)


STEP_POINTS = {"relocate", "code", "string", "prose", "tests", "delete"}
