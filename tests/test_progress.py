"""Progress on stderr: live lines on a terminal (a real pseudo-terminal here), nothing in
stdout or --json output, silenced by --quiet, one line per phase at most elsewhere."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
import threading

import pytest
from helpers import git, init_repo, write_tree

USERS = 120
PLAN = "version: 1\nroots: [python]\nmoves:\n  - {from: pkg.old, to: pkg.new}\n"


def synthetic_tree(root, filler: int):
    """`filler` unrelated modules, 10 kernels that move, 120 files importing them."""
    files = dict.fromkeys(
        ["python/pkg/__init__.py", "python/pkg/old/__init__.py", "python/app/__init__.py"], ""
    )
    for i in range(10):
        files[f"python/pkg/old/k{i}.py"] = f"def k{i}(x):\n    return x\n"
    for i in range(filler):
        files[f"python/filler/d{i // 100}/f{i}.py"] = f"X{i} = {i}\n"
    for i in range(USERS):
        k = i % 10
        files[f"python/app/u{i}.py"] = (
            f"from pkg.old.k{k} import k{k}\nimport pkg.old.k{k}\n\nU{i} = k{k}({i})\n"
        )
    root.mkdir()
    write_tree(root, files)
    init_repo(root)
    plan = root.parent / "plan.yaml"
    plan.write_text(PLAN)
    return root, plan


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """~3100 files: a large synthetic tree for the scan and parse phases."""
    return synthetic_tree(tmp_path_factory.mktemp("big") / "repo", 3000)


@pytest.fixture
def medium(tmp_path):
    """~630 files, for apply and verify (which run the engine again per commit)."""
    return synthetic_tree(tmp_path / "repo", 500)


def run_on_pty(args, env=None) -> tuple[int, bytes, str]:
    """(exit status, stdout bytes, stderr as the terminal saw it): stderr is a pty."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "migrate", *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=slave,
        stdin=subprocess.DEVNULL,
        env={**os.environ, **(env or {})},
    )
    os.close(slave)
    out: list[bytes] = []
    reader = threading.Thread(target=lambda: out.append(proc.stdout.read()))
    reader.start()
    err = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the child closed its end
            break
        if not chunk:
            break
        err += chunk
    proc.wait(timeout=600)
    reader.join()
    os.close(master)
    return proc.returncode, out[0], err.decode("utf-8", "replace")


def run_piped(args, env=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "migrate", *map(str, args)],
        capture_output=True,
        env={**os.environ, **(env or {})},
    )


def final_lines(terminal: str) -> list[str]:
    """What a terminal shows: each line as last redrawn (after its last \\r)."""
    lines = terminal.replace("\r\n", "\n").split("\n")
    return [re.sub(r"\x1b\[K", "", ln.rsplit("\r", 1)[-1]) for ln in lines if ln.strip()]


def test_dry_run_shows_scan_and_parse_progress_and_json_is_unchanged(big):
    repo, plan = big
    args = [plan, "--dry-run", "--format", "json", "--repo", repo]
    code, out, terminal = run_on_pty(args)
    assert code == 0, terminal
    shown = final_lines(terminal)
    n_files = len(git(repo, "ls-files").split())
    assert f"scan {n_files}/{n_files} files" in shown
    assert f"parse {USERS}/{USERS} candidate files" in shown
    assert re.search(r"\rparse \d+/120 candidate files|\x1b\[Kparse \d+/120", terminal)
    assert re.match(
        r"migrate run: done in \d+\.\ds: dry run: 11 move\(s\), 240 edit\(s\)$", shown[-1]
    )
    piped = run_piped(args)
    assert piped.returncode == 0 and piped.stderr == b""  # not a terminal: nothing
    assert out == piped.stdout  # progress never reaches stdout or the JSON
    code, quiet_out, quiet_terminal = run_on_pty([*args, "--quiet"])
    assert code == 0 and quiet_out == out and quiet_terminal == ""


def test_apply_and_verify_show_each_step_commit_and_check(medium):
    work, plan = medium
    code, out, terminal = run_on_pty(["apply", plan, "--repo", work])
    assert code == 0, terminal
    shown = final_lines(terminal)
    assert any(ln.startswith("commit ") and "step" in ln for ln in shown), shown
    assert re.match(r"migrate apply: done in \d+\.\ds: \d step commit\(s\)$", shown[-1]), shown
    assert b"applied" in out and b"\x1b" not in out
    base = git(work, "rev-list", "--max-parents=0", "HEAD").strip()
    args = ["verify", f"{base}..HEAD", "--repo", work, "--json", "--no-wheel", "--plan", plan]
    code, out, terminal = run_on_pty(args)
    shown = final_lines(terminal)
    assert any(ln.startswith("reproduce ") and "step commits" in ln for ln in shown), shown
    assert any(re.match(r"check (\d+)/\1 ", ln) for ln in shown), shown
    assert "static checks" in shown[-1] and "done in" in shown[-1]
    assert code == 0, out  # PASS: every commit reproduces, every check passes
    piped = run_piped(args)
    assert (code, out) == (piped.returncode, piped.stdout)


def test_non_terminal_lines_mode_is_one_line_per_phase(big):
    repo, plan = big
    res = run_piped([plan, "--dry-run", "--repo", repo], env={"MIGRATE_PROGRESS": "lines"})
    assert res.returncode == 0
    lines = res.stderr.decode().splitlines()
    names = [ln.split()[0] for ln in lines]
    assert names == sorted(set(names), key=names.index)  # no phase twice in a row
    assert "\r" not in res.stderr.decode() and len(lines) <= 4, lines
    quiet = run_piped([plan, "--dry-run", "--repo", repo, "-q"], env={"MIGRATE_PROGRESS": "lines"})
    assert quiet.stderr == b"" and quiet.stdout == res.stdout


def _square(x: int) -> int:
    return x * x


def test_the_pool_reports_progress_as_each_chunk_arrives():
    """The parse phase moves while the pool works, not once at its end."""
    from migrate.pool import pool_map

    seen = []
    out = pool_map(_square, list(range(50)), 2, None, (), chunksize=8, done=seen.append)
    assert out == [x * x for x in range(50)]
    assert seen == [8, 8, 8, 8, 8, 8, 2]
