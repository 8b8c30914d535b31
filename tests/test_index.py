"""The repository index on real layouts: namespace packages, several roots, src layout,
files git ignores, encodings and line endings."""

from __future__ import annotations

from migrate.index import build_index
from migrate.index.repo import detect_encoding, detect_newline
from migrate.index.tree import module_name


def test_regular_and_namespace_packages(make_repo):
    repo = make_repo(
        {
            "pkg/__init__.py": "",
            "pkg/mod.py": "x = 1\n",
            "pkg/sub/__init__.py": "",
            "pkg/sub/leaf.py": "",
            "nspkg/part/mod.py": "y = 2\n",  # PEP 420: no __init__.py anywhere
        }
    )
    idx = build_index(repo)
    assert idx.modules["pkg"] == "pkg/__init__.py"
    assert idx.modules["pkg.mod"] == "pkg/mod.py"
    assert idx.modules["pkg.sub.leaf"] == "pkg/sub/leaf.py"
    assert idx.modules["nspkg.part.mod"] == "nspkg/part/mod.py"
    assert idx.is_package("nspkg") and idx.is_package("nspkg.part")
    assert not idx.is_package("pkg.mod")
    assert idx.package_dir("nspkg.part") == "nspkg/part"
    assert idx.package_dir("pkg.sub") == "pkg/sub"
    assert idx.submodules("pkg") == ["pkg.mod", "pkg.sub", "pkg.sub.leaf"]


def test_several_roots_and_src_layout(make_repo):
    repo = make_repo(
        {
            "python/sglang/__init__.py": "",
            "python/sglang/srt/server.py": "",
            "src/tool/__init__.py": "",
            "src/tool/cli.py": "",
            "test/registered/test_a.py": "",
            "setup.py": "",
        }
    )
    idx = build_index(repo, ["python", "src", "."])
    assert idx.modules["sglang.srt.server"] == "python/sglang/srt/server.py"
    assert idx.modules["tool.cli"] == "src/tool/cli.py"
    # The "." root still names files outside the other roots...
    assert idx.modules["test.registered.test_a"] == "test/registered/test_a.py"
    assert idx.files["setup.py"].module == "setup"
    # ...but a file under python/ is named relative to python/, never "python.sglang".
    assert "python.sglang.srt.server" not in idx.modules
    assert idx.files["python/sglang/srt/server.py"].root == "python"


def test_git_ignored_and_untracked_files(make_repo):
    repo = make_repo({".gitignore": "build/\n*.log\n", "pkg/a.py": "", "build/gen.py": ""})
    (repo / "pkg" / "new.py").write_text("")  # untracked, not ignored: part of the tree
    (repo / "pkg" / "debug.log").write_text("x")  # ignored
    (repo / "build" / "other.py").write_text("")  # ignored directory
    idx = build_index(repo)
    assert "pkg/new.py" in idx.files
    assert "pkg/debug.log" not in idx.files
    assert not any(p.startswith("build/") for p in idx.files)


def test_non_git_directory_applies_gitignore(make_repo):
    root = make_repo({".gitignore": "*.tmp\n", "a.py": "", "junk.tmp": ""}, git_init=False)
    idx = build_index(root)
    assert set(idx.files) == {".gitignore", "a.py"}


def test_modes_encodings_line_endings(make_repo):
    repo = make_repo(
        {
            "run.sh": "#!/bin/sh\r\necho hi\r\n",
            "latin.py": "# -*- coding: latin-1 -*-\nname = 'caf\xe9'\n".encode("latin-1"),
            "bom.py": b"\xef\xbb\xbfx = 1\n",
        }
    )
    (repo / "run.sh").chmod(0o755)
    idx = build_index(repo)
    assert idx.files["run.sh"].mode == 0o100755
    assert idx.files["latin.py"].mode == 0o100644
    assert idx.newline("run.sh") == "\r\n"
    assert idx.newline("latin.py") == "\n"
    assert idx.encoding("latin.py") == "latin-1"
    assert "caf\xe9" in idx.text("latin.py")
    assert idx.encoding("bom.py") == "utf-8-sig"


def test_symlink_is_indexed_as_link(make_repo):
    repo = make_repo({"pkg/real.py": "x = 1\n"})
    (repo / "pkg" / "alias.py").symlink_to("real.py")
    idx = build_index(repo)
    assert idx.files["pkg/alias.py"].is_symlink
    assert idx.read_bytes("pkg/alias.py") == b"real.py"


def test_module_name_rules():
    assert module_name("python/a/b.py", "python") == "a.b"
    assert module_name("python/a/__init__.py", "python") == "a"
    assert module_name("other/a.py", "python") is None
    assert module_name("a/my-file.py", ".") is None  # not an identifier
    assert module_name("README.md", ".") is None


def test_detectors():
    assert detect_encoding(b"#!/usr/bin/env python\n# coding: cp1252\n") == "cp1252"
    assert detect_encoding(b"x = 1\n") == "utf-8"
    assert detect_newline(b"a\r\nb\r\nc\n") == "\r\n"
    assert detect_newline(b"") == "\n"
