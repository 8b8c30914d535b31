"""What the tests share that is not a fixture: the repository's paths, real git repos in
tmp dirs, and the one golden-file helper.

Tests import these from here (`from helpers import git`), never from `conftest`.

Goldens are compared byte for byte. `MIGRATE_UPDATE_GOLDENS=1` is the one switch that
(re)writes them; without it a missing golden fails: a golden is never created silently.
Review the diff of golden/ after regenerating, like any other change.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
SAMPLE = REPO_ROOT / "kernels_sample"
PLANS = REPO_ROOT / "plans"
GOLDEN = REPO_ROOT / "golden"

GIT_ENV = {
    "GIT_AUTHOR_NAME": "migrate-tests",
    "GIT_AUTHOR_EMAIL": "tests@example.invalid",
    "GIT_COMMITTER_NAME": "migrate-tests",
    "GIT_COMMITTER_EMAIL": "tests@example.invalid",
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00+00:00",
    "GIT_COMMITTER_DATE": "2026-01-01T00:00:00+00:00",
}


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args],
        cwd=repo,
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def migrate_cli(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    """`migrate ARGS` as a user runs it: a real process in `cwd`, its output captured."""
    return subprocess.run(
        [sys.executable, "-m", "migrate.cli", *args], cwd=cwd, capture_output=True, text=True
    )


def init_repo(path: Path) -> Path:
    """Turn `path` into a git repo with everything committed on branch main."""
    git(path, "init", "-q", "-b", "main")
    git(path, "config", "user.name", "migrate-tests")
    git(path, "config", "user.email", "tests@example.invalid")
    git(path, "config", "commit.gpgsign", "false")
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "base", "--allow-empty")
    return path


def write_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    for rel, content in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            p.write_bytes(content)
        else:
            p.write_text(content, encoding="utf-8")
    return root


UPDATE_GOLDENS = os.environ.get("MIGRATE_UPDATE_GOLDENS") == "1"
_REGENERATE = "MIGRATE_UPDATE_GOLDENS=1 regenerates it; review the diff"


def _bytes(content: str | bytes) -> bytes:
    return content.encode("utf-8") if isinstance(content, str) else content


def assert_golden(path: Path, actual: str | bytes) -> None:
    """`actual` is the golden file `path`, byte for byte (text is compared as UTF-8)."""
    if UPDATE_GOLDENS:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(_bytes(actual))
    assert path.is_file(), f"missing golden {path}; {_REGENERATE}"
    expected = path.read_bytes()
    if isinstance(actual, str):
        assert actual == expected.decode("utf-8"), f"{path} differs; {_REGENERATE}"
    else:
        assert actual == expected, f"{path} differs; {_REGENERATE}"


def files_below(root: Path) -> dict[str, bytes]:
    """Relative path -> bytes of every file below `root` (a `.git` directory excluded)."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(root).parts
    }


def assert_golden_dir(directory: Path, actual: dict[str, str | bytes]) -> None:
    """The files below the golden `directory` are exactly `actual` (relative path -> content)."""
    if UPDATE_GOLDENS:
        shutil.rmtree(directory, ignore_errors=True)
        for rel, content in actual.items():
            (directory / rel).parent.mkdir(parents=True, exist_ok=True)
            (directory / rel).write_bytes(_bytes(content))
    assert directory.is_dir(), f"missing golden {directory}; {_REGENERATE}"
    have = files_below(directory)
    assert sorted(have) == sorted(actual), f"{directory}: other files; {_REGENERATE}"
    for rel, content in actual.items():
        if isinstance(content, str):
            assert content == have[rel].decode("utf-8"), f"{directory / rel} differs"
        else:
            assert content == have[rel], f"{directory / rel} differs"


def start_paused(args: list[str], slow: str) -> subprocess.Popen:
    """Start `args` (a migrate run) paused at a checkpoint (`MIGRATE_SLOW_AT=point:seconds`)
    and return once it says it got there. It runs in its own session, so a test can signal
    its whole process group; a run that never reports the point is killed, not left behind."""
    env = dict(os.environ, MIGRATE_SLOW_AT=slow)
    env.pop("MIGRATE_FAIL_AT", None)
    proc = subprocess.Popen(
        args,
        env=env,
        stderr=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    line = proc.stderr.readline()
    if line.strip() != f"migrate: at {slow.split(':')[0]}":
        os.killpg(proc.pid, signal.SIGKILL)
        _, rest = proc.communicate(timeout=30)
        raise AssertionError(line + rest)
    return proc
