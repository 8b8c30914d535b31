"""verify reads a module with lone CR line breaks as Python does (review23 R10).

Python ends a line at `\\n`, `\\r\\n` and a lone `\\r`; apply refuses to edit a lone-CR file
(it says so) but may move one untouched. Before, the code facts turned ast positions into
offsets counting `\\n` only: six checks crashed on such a module (a false FAIL).
"""

from __future__ import annotations

import ast

from helpers import git, migrate_cli

from migrate.rewrite.spans import ast_offset, line_starts
from migrate.verify import verify

PLAN = "version: 1\nmoves:\n  - {from: pkg.old, to: pkg.new}\n"
LONE_CR = "import os\rX = 1\r\r\rdef f():\r    return os.sep\r"


def test_line_starts_break_lines_where_python_does():
    text = "a = 1\rb = 'é'\r\nc = 3\n\rd = b\r"
    starts = line_starts(text)
    assert starts == [0, 6, 15, 21, 22, 28]
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Name):
            at = ast_offset(text, starts, node.lineno, node.col_offset)
            assert text[at : at + len(node.id)] == node.id
    assert line_starts("x\ny\r\nz") == [0, 2, 5]  # LF and CRLF: as before


def test_a_moved_module_with_lone_cr_line_breaks_verifies(make_repo, tmp_path):
    repo = make_repo(
        {
            "pkg/__init__.py": "",
            "pkg/old.py": LONE_CR.encode(),
            "use.py": "from pkg.old import X\n\nprint(X)\n",
        }
    )
    plan = tmp_path / "plan.yaml"
    plan.write_text(PLAN)
    base = git(repo, "rev-parse", "HEAD").strip()
    res = migrate_cli(repo, "apply", str(plan))
    assert res.returncode == 0, res.stdout + res.stderr
    assert (repo / "pkg/new.py").read_bytes() == LONE_CR.encode()  # moved untouched
    res = migrate_cli(repo, "verify", f"{base}..HEAD", "--no-wheel")
    assert "crashed" not in res.stdout, res.stdout
    assert res.returncode == 0, res.stdout + res.stderr


def test_a_finding_in_a_lone_cr_file_names_its_python_line(make_repo, tmp_path):
    repo = make_repo(
        {
            "pkg/__init__.py": "",
            "pkg/old.py": LONE_CR.encode(),
            "pkg/user.py": b"import os\r\rfrom pkg.old import X\r",
        }
    )
    plan = tmp_path / "plan.yaml"
    plan.write_text(PLAN)
    base = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "mv", "pkg/old.py", "pkg/new.py")
    (repo / "pkg/user.py").write_bytes(b"import os\r\rfrom pkg.old import X\r\rY = os.sep\r")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "hand-made move that leaves pkg/user.py behind")
    result = verify(repo, f"{base}..HEAD", str(plan), wheel_check=False)
    crashed = [f for c in result.static_checks for f in c.findings if "crashed" in f.message]
    assert crashed == []
    imports = next(c for c in result.static_checks if c.name == "imports-resolve")
    assert imports.status == "FAIL"
    assert {(f.file, f.line) for f in imports.findings} == {("pkg/user.py", 3)}
