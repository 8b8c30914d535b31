"""Each step's tree for `apply` and `verify`: a view of the one materializer.

A tree here is a mapping path -> (git mode, bytes); it may be restricted to the paths the
ChangeSet touches (`needed_paths`), and the result is then restricted the same way.
"""

from __future__ import annotations

from collections.abc import Mapping

from migrate.changes import ChangeSet
from migrate.materialize import Files, StepError, iter_steps, move_map, needed_paths

__all__ = [
    "Files",
    "StepError",
    "move_map",
    "needed_paths",
    "step_sources",
    "step_trees",
]


def step_trees(
    base_files: Mapping[str, tuple[int, bytes]], cs: ChangeSet
) -> list[tuple[str, Files]]:
    """[(step, tree)] for every non-empty step, in `STEPS` order; each tree is cumulative."""
    return [(step, tree.files()) for step, tree in iter_steps(cs, base_files)]


def step_sources(cs: ChangeSet, step: str) -> dict[str, str]:
    """new path -> path in the previous step's tree, for paths a step renames."""
    return move_map(cs) if step == "relocate" else {}
