"""verify's oracles for what the other checks cannot see: the chains inside string
annotations, the files a module finds next to itself, and the modules importing a
package runs. Each HEAD is written by hand (a broken result the engine might make), so
the oracle is tested apart from the engine."""

from __future__ import annotations

import shutil
from pathlib import Path

from helpers import git
from rewrite_helpers import dedent, plan_yaml

from migrate.verify import verify


def hand_made(repo: Path, tmp_path: Path, moves, head: dict[str, str | None]):
    """Commit `head` (path -> text, None removes) on `repo` by hand and verify it against
    the plan of `moves`: the static checks judge the tree as the plan describes it."""
    plan = tmp_path / "plan.yaml"
    plan.write_text(plan_yaml(moves))
    base = git(repo, "rev-parse", "HEAD").strip()
    for path, text in head.items():
        target = repo / path
        if text is None:
            shutil.rmtree(target) if target.is_dir() else target.unlink()
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(dedent(text))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "by hand")
    return verify(repo, f"{base}..HEAD", str(plan), wheel_check=False, allow_foreign=True)


def found(result, check: str) -> list[tuple[str, int, str, str]]:
    (res,) = [c for c in result.static_checks if c.name == check]
    return [(f.file, f.line, f.severity, f.message) for f in res.findings]


COND = {"pkg/__init__.py": "", "pkg/sub/__init__.py": "", "pkg/sub/cond.py": "class X: ...\n"}


def test_a_string_annotation_naming_a_module_that_moved_away_fails(make_repo, tmp_path):
    """Review23 R2: `r"sub.cond.X"` left after `pkg.sub.cond` moved raises AttributeError
    in `typing.get_type_hints`; attributes-resolve read code chains only and said PASS.
    A `Literal[...]`'s strings and an `Annotated[...]`'s metadata are values, not read;
    a string already broken at BASE is a warning."""
    use = """\
        from typing import Annotated, Literal as L
        import pkg.sub.cond
        from pkg import sub

        def a(x: r"sub.cond.X", m: L["sub.cond.X"], y: Annotated[int, "sub.cond.X"]) -> "{r}":
            z: "list['sub.cond.X']" = []
            return x, z

        def old(x: "sub.gone.Y"):
            return x
        """
    repo = make_repo({**COND, "pkg/use.py": dedent(use.format(r="sub.cond.X"))})
    result = hand_made(
        repo,
        tmp_path,
        [("pkg.sub.cond", "pkg.sub.conditions")],
        {
            "pkg/sub/cond.py": None,
            "pkg/sub/conditions.py": "class X: ...\n",
            "pkg/use.py": use.replace("import pkg.sub.cond", "import pkg.sub.conditions").format(
                r="sub.conditions.X"
            ),
        },
    )
    hits = found(result, "attributes-resolve")
    errors = sorted((f, line) for f, line, sev, _ in hits if sev == "error")
    assert errors == [("pkg/use.py", 5), ("pkg/use.py", 6)], hits
    assert [(line, sev) for _, line, sev, _ in hits if "gone" in _] == [(9, "warning")]
    assert not result.ok
