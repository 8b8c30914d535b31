"""A module the symbols pass writes or extends has ONE line ending (review23 R12).

The moved code keeps its source's CRLF while the import header and the joins were LF: a
new module with mixed line endings (ruff format flags it, editors rewrite it). Rule: a
new module (or stub) takes its first source's line ending; code appended to an existing
module takes that module's. Python reads either the same way (the tokenizer normalises
line breaks, inside triple-quoted strings too), so converting is exact.
"""

from __future__ import annotations

from rewrite_helpers import rewrite_and_run

CORE = (
    b"import os\r\nimport sys\r\n\r\n\r\ndef a():\r\n    return os.sep\r\n\r\n\r\n"
    b'# about b\r\ndef b():\r\n    return sys.platform and """x\r\ny"""\r\n\r\n\r\n'
    b"class C:\r\n    pass\r\n"
)
USE = (
    b"from pkg.core import C, a, b\r\n\r\n\r\n"
    b'def check():\r\n    assert a() and b() == "x\\ny" and C\r\n'
)


def _one_ending(data: bytes, nl: bytes) -> bool:
    lf, crlf = data.count(b"\n"), data.count(b"\r\n")
    return (crlf == lf) if nl == b"\r\n" else crlf == 0


def test_new_modules_take_their_sources_line_ending(make_repo, tmp_path):
    files = {"pkg/__init__.py": "", "pkg/core.py": CORE, "use.py": USE}
    moves = [("pkg.core:a", "pkg.one"), ("pkg.core:b", "pkg.two")]
    _, _, out = rewrite_and_run(make_repo, tmp_path, files, moves, "use")
    for path in ("pkg/one.py", "pkg/two.py", "pkg/core.py"):
        data = (out / path).read_bytes()
        assert _one_ending(data, b"\r\n"), (path, data)
    # R12's second half: the source does not start with the blank lines that lay between
    # its removed imports and definitions
    assert (out / "pkg/core.py").read_bytes() == b"class C:\r\n    pass\r\n"


def test_a_source_emptied_at_its_top_starts_with_its_first_kept_statement(make_repo, tmp_path):
    core = CORE.replace(b"\r\n", b"\n")
    files = {"pkg/__init__.py": "", "pkg/core.py": core, "use.py": USE.replace(b"\r\n", b"\n")}
    moves = [("pkg.core:a", "pkg.one"), ("pkg.core:b", "pkg.two")]
    _, _, out = rewrite_and_run(make_repo, tmp_path, files, moves, "use")
    assert (out / "pkg/core.py").read_text() == "class C:\n    pass\n"


def test_code_appended_to_an_lf_module_takes_its_line_ending(make_repo, tmp_path):
    files = {
        "pkg/__init__.py": "",
        "pkg/core.py": CORE,
        "pkg/one.py": "import os\n\nX = os.name\n",
        "use.py": USE,
    }
    moves = [("pkg.core:a", "pkg.one"), ("pkg.core:b", "pkg.one")]
    _, _, out = rewrite_and_run(make_repo, tmp_path, files, moves, "use")
    data = (out / "pkg/one.py").read_bytes()
    assert _one_ending(data, b"\n"), data
    assert b"def b()" in data


def test_a_new_stub_takes_its_sources_line_ending(make_repo, tmp_path):
    files = {
        "pkg/__init__.py": "",
        "pkg/core.py": CORE,
        "pkg/core.pyi": b"import os\r\n\r\ndef a() -> os.PathLike: ...\r\ndef b() -> str: ...\r\n",
        "use.py": USE,
    }
    moves = [("pkg.core:a", "pkg.one")]
    _, _, out = rewrite_and_run(make_repo, tmp_path, files, moves, "use")
    data = (out / "pkg/one.pyi").read_bytes()
    assert _one_ending(data, b"\r\n"), data
    assert _one_ending((out / "pkg/one.py").read_bytes(), b"\r\n")
