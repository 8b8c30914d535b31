"""Two forms that rewrite one statement: their edits are composed, or the plan is refused.

The case (issue 12, Defect A, found on humanize): `from pkg import number, time` loses
`number` (its one use moved with a symbol) and holds `time`, a moved module. The import
finaliser's drop and the import pass's respelling both cover the whole statement; the
rewriter kept the first and dropped the other without a word, so apply wrote
`from pkg import time` (ImportError) and exited 0. Each case here is applied by the real
`migrate apply` in a real git repo, the result is imported and executed, verify passes,
and `fix` run twice finds nothing (idempotence).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import git
from rewrite_helpers import dedent, run_golden_case

from migrate.changes import Edit
from migrate.cli import main
from migrate.rewrite.overlaps import settled
from migrate.rewrite.spans import make_edit

PLAN = """\
version: 1
moves:
  - {from: pkg.time, to: pkg.dates.time}
  - {from: "pkg.number:intcomma", to: pkg.grouping}
"""

BASE = {
    "pkg/__init__.py": "",
    "pkg/number.py": "def intcomma(x):\n    return str(x)\n\n\ndef other():\n    return 1\n",
    "pkg/time.py": 'def naturaltime(x):\n    return "t"\n',
}

# extra.py variants: each binds `number` (no use left after the symbol move) and `time`
# (a moved module) in ONE statement; `check()` runs the rewritten code.
CASES = {
    "one-line": """
        from pkg import number, time


        def check():
            assert number.intcomma(1) + time.naturaltime(1) == "1t"
        """,
    "parenthesized-with-comments": """
        from pkg import (  # the helpers
            number,  # noqa: F401
            time,  # clocks
        )


        def check():
            assert number.intcomma(1) + time.naturaltime(1) == "1t"
        """,
    "in-a-function": """
        def check():
            from pkg import number, time

            assert number.intcomma(1) + time.naturaltime(1) == "1t"
        """,
    "relative-and-aliased": """
        from . import time as clock, number


        def check():
            assert number.intcomma(1) + clock.naturaltime(1) == "1t"
        """,
    "plain-import-aliased": """
        import pkg.number as n, pkg.time as t


        def check():
            assert n.intcomma(1) + t.naturaltime(1) == "1t"
        """,
    "kept-name-too": """
        from pkg import number, time


        def check():
            assert number.intcomma(1) + time.naturaltime(1) + str(number.other()) == "1t1"
        """,
}


def cli(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def _repo(make_repo, tmp_path, extra: str) -> tuple[Path, Path, str]:
    repo = make_repo({**BASE, "pkg/extra.py": dedent(extra)})
    plan = tmp_path / "plan.yaml"
    plan.write_text(PLAN)
    return repo, plan, git(repo, "rev-parse", "HEAD").strip()


def _run_check(repo: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", "import pkg.extra as m; m.check()"],
        cwd=repo,
        capture_output=True,
        text=True,
    )


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_dropped_name_and_a_moved_module_in_one_statement_are_both_rewritten(
    make_repo, tmp_path, case
):
    repo, plan, base = _repo(make_repo, tmp_path, CASES[case])
    assert _run_check(repo).returncode == 0  # BASE works
    res = cli("apply", str(plan), "--repo", str(repo))
    assert res.exit_code == 0, res.output
    text = (repo / "pkg/extra.py").read_text()
    ran = _run_check(repo)
    assert ran.returncode == 0, f"{ran.stderr}\n--- pkg/extra.py:\n{text}"
    assert "dates" in text and "grouping" in text, text
    if case == "parenthesized-with-comments":  # the statement keeps its layout and comments
        assert "(  # the helpers" in text and "# clocks" in text, text
    res = cli("verify", f"{base}..HEAD", "--repo", str(repo), "--no-wheel")
    assert res.exit_code == 0, res.output
    for _ in range(2):  # the result is a fixed point: `fix` finds nothing, twice
        res = cli("fix", str(plan), "--repo", str(repo), "--dry-run")
        assert res.exit_code == 0, res.output
        assert (repo / "pkg/extra.py").read_text() == text
    assert git(repo, "status", "--porcelain") == ""


def _edit(text: str, old: str, new: str, reason: str, at: int = 0) -> Edit:
    start = text.index(old, at)
    return Edit("m.py", start, start + len(old), old, new, "code", 1, start + 1, reason)


def test_settled_keeps_disjoint_edits_merges_equal_ones_and_refuses_an_overlap():
    text = "from a import b, c\nx = a.b\n"
    ins = Edit("m.py", 0, 0, "", "import z\n", "code", 1, 1, "added")
    stmt = _edit(text, "from a import b, c", "from q import b, c", "respelled")
    same = _edit(text, "from a import b, c", "from q import b, c", "respelled again")
    use = _edit(text, "a.b", "q.b", "chain", at=19)
    edits, notes = settled("m.py", text, [use, stmt, same, ins])
    assert edits == [ins, stmt, use] and notes == []
    crossing = _edit(text, "c\nx", "C\nX", "crossing")  # not inside one statement
    edits, notes = settled("m.py", text, [stmt, crossing, use])
    assert edits == [stmt, use]
    assert [str(n) for n in notes] == [
        "m.py:1:18: error: two rewrites of one span cannot be combined: respelled "
        "('from a import b, c' -> 'from q import b, c') and crossing ('c\\nx' -> 'C\\nX')"
    ]
    assert notes[0].kind == "overlap"
    # an insertion strictly inside a replaced span is an overlap too
    inside = Edit("m.py", 5, 5, "", "X", "code", 1, 6, "inside")
    assert len(settled("m.py", text, [stmt, inside])[1]) == 1


def test_an_overlap_no_form_can_compose_refuses_apply_and_fix(make_repo, tmp_path, monkeypatch):
    """A form whose edit crosses the bounds of the statement the finaliser rewrites: apply
    exits 2 naming file:line:col and writes nothing; fix exits 2 and writes nothing."""
    import migrate.rewrite.pyfile as pyfile

    repo, plan, base = _repo(make_repo, tmp_path, CASES["one-line"])
    real = pyfile.rewrite_prose

    def crossing(job, facts, ctx, regex):
        if job.new_path != "pkg/extra.py":
            return real(job, facts, ctx, regex)
        at = job.text.index("time\n")
        return [make_edit(job.new_path, job.text, at, at + 6, "TIME\n\n", "prose", "x")]

    monkeypatch.setattr(pyfile, "rewrite_prose", crossing)
    before = (repo / "pkg/extra.py").read_bytes()
    res = cli("run", str(plan), "--repo", str(repo), "--dry-run")
    assert res.exit_code == 1, res.output
    res = cli("apply", str(plan), "--repo", str(repo))
    assert res.exit_code == 2, res.output
    assert "pkg/extra.py:1:" in res.output and "cannot be combined" in res.output, res.output
    assert git(repo, "rev-parse", "HEAD").strip() == base
    assert git(repo, "status", "--porcelain") == ""
    res = cli("fix", str(plan), "--repo", str(repo))
    assert res.exit_code == 2, res.output
    assert "cannot be combined" in res.output, res.output
    assert (repo / "pkg/extra.py").read_bytes() == before
    assert git(repo, "status", "--porcelain") == ""


# The symbol pass's pair: the imports only the moved code used leave the source module,
# while the import pass respells (or splits) the same statement for a moved module.
NUMBER_BODY = """


def intcomma(x):
    return str(x) + time.naturaltime(x)


def other():
    return extra2.A
"""
ONE_STATEMENT = "from pkg import time, extra2\n" + NUMBER_BODY
TWO_PLAN = """\
version: 1
moves:
  - {from: "pkg.number:intcomma", to: pkg.grouping}
  - {from: "pkg.number:other", to: pkg.others}
"""
SOURCES = {
    "split-statement": (PLAN, ONE_STATEMENT, "from pkg import extra2\n"),
    "respelled-statement": (
        PLAN,
        "from pkg import time\nfrom pkg import extra2\n" + NUMBER_BODY,
        "from pkg import extra2\n",
    ),
    "two-targets-one-statement": (TWO_PLAN, ONE_STATEMENT, ""),
}
USER = """
from pkg import number


def check():
    assert number.intcomma(1) + number.other() == "1ta"
"""


@pytest.mark.parametrize("case", sorted(SOURCES))
def test_imports_only_moved_code_used_leave_a_statement_another_form_rewrites(
    make_repo, tmp_path, case
):
    plan_text, source, head = SOURCES[case]
    repo = make_repo(
        {
            **BASE,
            "pkg/extra2.py": 'A = "a"\n',
            "pkg/number.py": dedent(source),
            "pkg/extra.py": dedent(USER),
        }
    )
    plan = tmp_path / "plan.yaml"
    plan.write_text(plan_text)
    base = git(repo, "rev-parse", "HEAD").strip()
    assert _run_check(repo).returncode == 0
    res = cli("apply", str(plan), "--repo", str(repo))
    assert res.exit_code == 0, res.output
    ran = _run_check(repo)
    assert ran.returncode == 0, ran.stderr
    number = (repo / "pkg/number.py").read_text()
    imports = [ln for ln in number.splitlines() if ln.startswith(("from", "import"))]
    assert imports == head.splitlines(), number  # no import the moved code alone used
    res = cli("verify", f"{base}..HEAD", "--repo", str(repo), "--no-wheel")
    assert res.exit_code == 0, res.output
    for _ in range(2):
        res = cli("fix", str(plan), "--repo", str(repo), "--dry-run")
        assert res.exit_code == 0 and res.output.startswith("0 edit(s)"), res.output


def test_a_comment_rewritten_inside_the_all_entries_a_move_drops_goes_with_them(
    make_repo, tmp_path
):
    """The symbol pass drops the moved name from `__all__`; the prose pass respells the
    module named in the comment on that entry. The `__all__` edit was skipped without a
    word: `intcomma` stayed listed, and `from pkg.number import *` raised AttributeError.
    The comment's rewrite lies inside what the `__all__` edit drops: moot, withdrawn."""
    number = '__all__ = [\n    "intcomma",  # see pkg.time\n]\n\n\n' + BASE["pkg/number.py"]
    user = "from pkg.number import *\nfrom pkg import number\n\n\n"
    user += "def check():\n    assert number.other() == 1\n"
    repo = make_repo({**BASE, "pkg/number.py": number, "pkg/extra.py": user})
    plan = tmp_path / "plan.yaml"
    plan.write_text(PLAN)
    base = git(repo, "rev-parse", "HEAD").strip()
    res = cli("apply", str(plan), "--repo", str(repo))
    assert res.exit_code == 0, res.output
    ran = _run_check(repo)
    assert ran.returncode == 0, ran.stderr
    assert (repo / "pkg/number.py").read_text().startswith("__all__ = []\n")
    res = cli("verify", f"{base}..HEAD", "--repo", str(repo), "--no-wheel")
    assert res.exit_code == 0, res.output
    for _ in range(2):
        res = cli("fix", str(plan), "--repo", str(repo), "--dry-run")
        assert res.exit_code == 0 and res.output.startswith("0 edit(s)"), res.output


def test_the_golden_case_runs(make_repo, tmp_path):
    """golden/rewrite/binding-drop-and-respell: a parenthesized statement with comments and
    a function-local one, each composed; executed, and a second run changes nothing."""
    _, _, out, _ = run_golden_case(make_repo, tmp_path, "binding-drop-and-respell")
    text = (out / "app/check.py").read_text()
    assert "from pkg.dates import (  # the helpers\n    time,  # clocks\n)" in text
    assert "    from pkg.dates import time\n" in text and "number" not in text
