"""Apply a plan as reviewable step commits, atomically; the trees are a pure function."""

from migrate.git_steps.apply import (
    ApplyFailed,
    ApplyRefused,
    ApplyResult,
    StepCommit,
    apply_plan,
)
from migrate.git_steps.engine import plan_changeset
from migrate.git_steps.trees import StepError, needed_paths, step_trees

__all__ = [
    "ApplyFailed",
    "ApplyRefused",
    "ApplyResult",
    "StepCommit",
    "StepError",
    "apply_plan",
    "needed_paths",
    "plan_changeset",
    "step_trees",
]
