"""Every input of issue 15 that was accepted, crashed or was unclear: now exit 2 with
`file:line:col` (plan problems) or a one-line reason naming the argument, nothing written."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from click.testing import CliRunner
from helpers import git

from migrate.cli import main

FILES = {
    "python/pkg/__init__.py": "",
    "python/pkg/old/__init__.py": "",
    "python/pkg/old/norm.py": 'OP = "old.rmsnorm"\n\n\ndef rmsnorm(x):\n    return x\n',
    "python/pkg/old/data/cfg.json": "{}\n",
    "python/app/__init__.py": "",
    "python/app/use.py": "from pkg.old.norm import rmsnorm\nimport pkg.old.norm\n",
    "tools/readme.txt": "tools\n",
    "test/test_norm.py": "def test_a():\n    pass\n\n\ndef test_b():\n    pass\n",
}
HEAD = "version: 1\nroots: [python]\n"
MOVE = HEAD + "moves:\n  - {from: pkg.old.norm, to: pkg.new.norm}\n"


@pytest.fixture
def repo(make_repo):
    return make_repo(FILES)


def snapshot(root):
    return {
        p.relative_to(root).as_posix(): (p.lstat().st_mode, p.read_bytes())
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(root).parts
    }


def cli(*args, engine=None):
    """`migrate ARGS`; `engine` (a function of the prepared plan) instead of the real one."""
    return CliRunner().invoke(main, [str(a) for a in args], obj=engine)


def write(tmp_path, text: str | bytes, name="plan.yaml"):
    p = tmp_path / name
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_text(text, encoding="utf-8")
    return p


def positioned(output: str, plan) -> list[tuple[int, int, str]]:
    return [
        (int(m[1]), int(m[2]), m[3])
        for m in re.finditer(rf"^{re.escape(str(plan))}:(\d+):(\d+): error: (.*)$", output, re.M)
    ]


def refused_with_positions(repo, tmp_path, text, *cmds: str) -> list[tuple[int, int, str]]:
    """Run the plan through dry run and apply (and more): exit 2, positioned, nothing written."""
    plan = write(tmp_path, text)
    before, head = snapshot(repo), git(repo, "rev-parse", "HEAD")
    found = None
    for cmd in cmds or ("dry-run", "apply"):
        args = {
            "dry-run": [plan, "--dry-run"],
            "apply": ["apply", plan],
            "check": ["check", "--plan", plan],
            "stale": ["stale", plan],
            "fix": ["fix", plan],
        }[cmd]
        res = cli(*args, "--repo", repo)
        assert res.exit_code == 2, (cmd, res.output)
        assert "Traceback" not in res.output
        got = positioned(res.output, plan)
        assert got, (cmd, res.output)
        found = found or got
    assert snapshot(repo) == before and git(repo, "rev-parse", "HEAD") == head
    return found


# -- plan validation gaps -------------------------------------------------------------


@pytest.mark.parametrize("target", ["pkg.layernorm.class", "pkg.new.None", "pkg.True"])
def test_a_keyword_in_a_module_target(repo, tmp_path, target):
    text = HEAD + f"moves:\n  - from: pkg.old.norm\n    to: {target}\n"
    (line, col, msg) = refused_with_positions(repo, tmp_path, text, "dry-run", "apply", "check")[0]
    assert (line, col) == (5, 9) and "Python keyword" in msg


def test_a_keyword_in_a_path_target_directory(repo, tmp_path):
    text = HEAD + "moves:\n  - {from: python/pkg/old/, to: python/pkg/class/}\n"
    errors = refused_with_positions(repo, tmp_path, text)
    assert all(pos == 4 for pos, _, _ in errors) and "keyword 'class'" in errors[0][2]


@pytest.mark.parametrize("value", ["true", "1.0", "'1'", "2", "null"])
def test_version_is_the_integer_1_only(repo, tmp_path, value):
    text = f"version: {value}\nroots: [python]\n"
    (line, col, msg) = refused_with_positions(repo, tmp_path, text, "dry-run", "check")[0]
    assert (line, col) == (1, 10) and msg.startswith("version must be 1")


def test_the_same_source_twice_with_different_targets(repo, tmp_path):
    text = HEAD + (
        "moves:\n  - {from: pkg.old.norm, to: pkg.a.norm}\n"
        "  - {from: pkg.old.norm, to: pkg.b.norm}\n"
    )
    (line, col, msg) = refused_with_positions(repo, tmp_path, text)[0]
    assert (line, col) == (5, 12) and "listed twice (first at line 4)" in msg


def test_a_module_moved_by_path_out_of_every_import_root(repo, tmp_path):
    text = HEAD + "moves:\n  - {from: python/pkg/old/norm.py, to: tools/norm.py}\n"
    (line, col, msg) = refused_with_positions(repo, tmp_path, text)[0]
    assert (line, col) == (4, 40) and "out of every import root" in msg


def test_a_module_moved_by_path_into_another_root_has_its_importers_rewritten(make_repo, tmp_path):
    repo = make_repo({**FILES, "src/extra/__init__.py": ""})
    text = (
        "version: 1\nroots: [python, src]\nmoves:\n"
        "  - {from: python/pkg/old/norm.py, to: src/extra/norm.py}\n"
    )
    plan = write(tmp_path, text)
    res = cli("apply", plan, "--repo", repo)
    assert res.exit_code == 0, res.output
    assert (repo / "python/app/use.py").read_text() == (
        "from extra.norm import rmsnorm\nimport extra.norm\n"
    )


def test_a_directory_moved_into_its_own_subtree(repo, tmp_path):
    text = HEAD + "moves:\n  - {from: python/pkg/old/, to: python/pkg/old/sub/}\n"
    (line, col, msg) = refused_with_positions(repo, tmp_path, text)[0]
    assert (line, col) == (4, 33) and "inside its own source" in msg


@pytest.mark.parametrize(
    "target",
    [
        "python/pkg/" + "a" * 256 + "/norm.py",  # one name over NAME_MAX
        "python/pkg/" + "/".join(["d" * 200] * 25) + "/norm.py",  # the path over PATH_MAX
    ],
)
def test_file_names_over_the_file_system_limits(repo, tmp_path, target):
    text = HEAD + f"moves:\n  - from: python/pkg/old/norm.py\n    to: {target}\n"
    (line, col, msg) = refused_with_positions(repo, tmp_path, text)[0]
    assert (line, col) == (5, 9) and "this file system allows" in msg


def test_a_module_target_whose_files_exceed_name_max(repo, tmp_path):
    text = HEAD + "moves:\n  - from: pkg.old.norm\n    to: pkg.new." + "n" * 254 + "\n"
    (line, col, msg) = refused_with_positions(repo, tmp_path, text)[0]
    assert (line, col) == (5, 9) and "bytes (this file system allows" in msg


def test_root_errors_carry_their_own_position(repo, tmp_path):
    text = "version: 1\nroots:\n  - python\n  - nowhere\n"
    (line, col, msg) = refused_with_positions(repo, tmp_path, text)[0]
    assert (line, col) == (4, 5) and "holds no files" in msg


def test_two_files_onto_one_target_point_at_the_move(repo, tmp_path):
    text = HEAD + (
        "moves:\n  - {from: pkg.old.norm, to: pkg.x}\n"
        "  - {from: python/app/use.py, to: python/pkg/x.py}\n"
    )
    (line, col, msg) = refused_with_positions(repo, tmp_path, text)[0]
    assert line in (4, 5) and col > 0 and "would move to python/pkg/x.py" in msg


# -- crashes that are now clean errors ------------------------------------------------


def test_a_latin1_comment_in_the_plan(repo, tmp_path):
    text = MOVE.encode() + "# caf\xe9\n".encode("latin-1")
    for cmd in ("dry-run", "apply", "stale", "check", "fix"):
        (line, col, msg) = refused_with_positions(repo, tmp_path, text, cmd)[0]
        assert (line, col) == (5, 6) and "not UTF-8" in msg
    plan = tmp_path / "plan.yaml"
    res = cli("report", "--plan", plan, "--repo", repo, "--no-verify", "HEAD..HEAD")
    assert res.exit_code == 2 and positioned(res.output, plan)[0][:2] == (5, 6)


def test_dry_run_and_apply_agree_on_a_file_that_does_not_parse(make_repo, tmp_path):
    repo = make_repo({**FILES, "python/app/bad.py": "import pkg.old.norm\ndef f(:\n"})
    plan = write(tmp_path, MOVE)
    outputs = []
    for args in ([plan, "--dry-run"], ["apply", plan]):
        res = cli(*args, "--repo", repo)
        assert res.exit_code == 2 and "Traceback" not in res.output
        outputs.append([ln for ln in res.output.splitlines() if ": error: " in ln])
    assert outputs[0] == outputs[1] and outputs[0][0].startswith("python/app/bad.py:2:")


def test_a_python_file_with_lone_cr_line_breaks_is_refused_at_its_first_one(make_repo, tmp_path):
    """Python reads a lone CR (old Mac line endings) as a line break, the offsets the
    rewrite edits by do not: the dry run, apply and fix crashed (IndexError, exit 4).
    Now the file is refused like one that does not parse: exit 2, positioned, nothing
    written."""
    mac = b"import os\rfrom pkg.old.norm import rmsnorm\r\rprint(rmsnorm(1), os.sep)\r"
    repo = make_repo({**FILES, "python/app/mac.py": mac})
    before = snapshot(repo)
    plan = write(tmp_path, MOVE)
    for args in ([plan, "--dry-run"], ["apply", plan], ["fix", plan, "--dry-run"]):
        res = cli(*args, "--repo", repo)
        assert res.exit_code == 2 and "Traceback" not in res.output, res.output
        errors = [ln for ln in res.output.splitlines() if ": error: " in ln]
        assert errors[0].startswith("python/app/mac.py:1:10: error: "), errors
        assert "lone CR" in errors[0], errors
    assert snapshot(repo) == before and git(repo, "status", "--porcelain") == ""


@pytest.mark.parametrize("content", ["{bad", "[1, 2]", b"\xff\xfe"])
def test_report_with_a_malformed_verify_json(repo, tmp_path, content):
    bad = write(tmp_path, content, "verify.json")
    res = cli("report", "HEAD..HEAD", "--repo", repo, "--verify-json", bad, "--no-verify")
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert f"{bad}" in res.output and "--verify-json" in res.output


def test_inventory_diff_from_a_revision_that_does_not_exist(repo):
    res = cli("inventory", "--repo", repo, "--diff-from", "nosuchrev")
    assert res.exit_code == 2 and "--diff-from" in res.output and "nosuchrev" in res.output
    assert "CalledProcessError" not in res.output


def test_stale_with_a_missing_file_or_one_outside_the_repository(repo, tmp_path, monkeypatch):
    plan = write(tmp_path, MOVE)
    monkeypatch.chdir(repo)
    for arg, why in (("nofile.py", "does not exist"), (str(tmp_path), "is a directory")):
        res = cli("stale", plan, arg)
        assert res.exit_code == 2 and why in res.output and arg in res.output
    outside = write(tmp_path, "x = 1\n", "outside.py")
    res = cli("stale", plan, outside)
    assert res.exit_code == 2 and "outside the repository" in res.output
    assert "ValueError" not in res.output
    assert cli("stale", plan, "python/app/use.py").exit_code == 1  # a real file still works


def test_report_with_an_unknown_revision_names_it(repo):
    res = cli("report", "nosuchref..HEAD", "--repo", repo, "--no-verify")
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert "nosuchref" in res.output


# -- "already applied" means every part of the plan -------------------------------------


def test_a_plan_partly_in_effect_is_not_already_applied(repo, tmp_path):
    moves = write(tmp_path, MOVE, "moves.yaml")
    assert cli("apply", moves, "--repo", repo).exit_code == 0
    more = write(tmp_path, MOVE + "op_ids:\n  - {from: old.rmsnorm, to: layernorm.rmsnorm}\n")
    head = git(repo, "rev-parse", "HEAD")
    res = cli("apply", more, "--repo", repo)
    assert res.exit_code == 2, res.output
    assert "already-applied" not in res.output
    assert f"{more}:6:5: error: op id old.rmsnorm -> layernorm.rmsnorm is not in effect" in (
        res.output
    )
    assert git(repo, "rev-parse", "HEAD") == head
    # The rest applies once the moves (already in effect) are taken out of the plan.
    rest = write(tmp_path, HEAD + "op_ids:\n  - {from: old.rmsnorm, to: layernorm.rmsnorm}\n")
    assert cli("apply", rest, "--repo", repo).exit_code == 0
    assert '"layernorm.rmsnorm"' in (repo / "python/pkg/new/norm.py").read_text()
    assert "already-applied" in cli("apply", more, "--repo", repo).output


def test_a_split_not_in_effect_is_not_already_applied(repo, tmp_path):
    moves = write(tmp_path, MOVE, "moves.yaml")
    assert cli("apply", moves, "--repo", repo).exit_code == 0
    split = (
        "splits:\n  - file: test/test_norm.py\n    into:\n"
        "      - {path: test/test_a.py, take: [test_a]}\n"
        "      - {path: test/test_norm.py, take: [rest]}\n"
    )
    res = cli("apply", write(tmp_path, MOVE + split), "--repo", repo)
    assert res.exit_code == 2 and "split of test/test_norm.py is not in effect" in res.output


# -- the command line itself -------------------------------------------------------------


def test_bad_arguments_are_one_line_naming_the_argument(repo):
    for args, name in (
        (["verify", "--repo", "/nonexistent"], "--repo"),
        (["check", "--select"], "--select"),
        (["run", "--format", "xml", "p.yaml"], "--format"),
        (["nosuchcommand.yaml", "--bogus"], "--bogus"),
    ):
        res = cli(*args)
        assert res.exit_code == 2 and "Traceback" not in res.output
        errors = [ln for ln in res.output.splitlines() if ln.startswith("Error:")]
        assert len(errors) == 1 and name in errors[0], res.output


def test_an_internal_error_is_one_line_exit_4_and_a_traceback_only_with_debug(
    repo, tmp_path, monkeypatch
):
    def boom(prep, durations=None):
        raise RuntimeError("engine exploded")

    plan = write(tmp_path, MOVE)
    res = cli(plan, "--dry-run", "--repo", repo, engine=boom)
    assert res.exit_code == 4
    assert "internal error: RuntimeError: engine exploded" in res.output
    assert "report it" in res.output and "Traceback" not in res.output
    res = cli(plan, "--dry-run", "--repo", repo, "--debug", engine=boom)
    assert isinstance(res.exception, RuntimeError)
    monkeypatch.setenv("MIGRATE_DEBUG", "1")
    assert isinstance(cli(plan, "--dry-run", "--repo", repo, engine=boom).exception, RuntimeError)


def test_every_command_goes_through_the_one_handler_and_documents_exit_statuses():
    from migrate.commands import discover

    cmds = discover()
    assert {c.name for c in cmds} >= {"run", "apply", "verify", "report", "check", "stale"}
    for cmd in cmds:
        assert getattr(cmd.callback, "handles_errors", False), cmd.name
        text = CliRunner().invoke(main, [cmd.name, "--help"]).output
        assert "Exit status:" in text, cmd.name
        for code in ("0", "1", "2", "3", "4"):
            assert re.search(rf"^\s+{code}  \S", text, re.M), (cmd.name, code)
        assert "--quiet" in text and "--debug" in text


DRIVER = """\
import builtins, sys
n, args = int(sys.argv[1]), sys.argv[2:]
real, seen = builtins.__import__, [0]
def counting(*a, **k):
    seen[0] += 1
    if seen[0] == n:
        raise KeyboardInterrupt
    return real(*a, **k)
from migrate.__main__ import main  # what the console script imports before main()
sys.argv = ["migrate", *args]
builtins.__import__ = counting
main()
"""


def test_ctrl_c_at_every_import_of_the_cli_prints_no_traceback(repo, tmp_path):
    """A KeyboardInterrupt raised at the k-th import statement run by `migrate` (click, the
    commands, the stages), for every k until the command runs: one line and 130."""
    plan = write(tmp_path, MOVE)
    args = [str(plan), "--dry-run", "--repo", str(repo)]
    probe = subprocess.run(
        [sys.executable, "-c", DRIVER, "0", "--version"], capture_output=True, text=True
    )
    assert probe.returncode == 0, probe.stderr
    interrupted, k = 0, 1
    while True:
        res = subprocess.run(
            [sys.executable, "-c", DRIVER, str(k), *args], capture_output=True, text=True
        )
        assert "Traceback" not in res.stderr, (k, res.stderr)
        if res.returncode != 130:
            break  # the k-th import is past the end of the run: it finished normally
        assert res.stderr.strip().splitlines()[-1].endswith("interrupted"), res.stderr
        interrupted, k = interrupted + 1, k + max(1, k // 8)
    assert res.returncode == 0, res.stderr
    assert interrupted >= 20  # click, migrate.cli, every command module, the pipeline


def test_sigint_in_the_first_50_ms_of_migrate_prints_no_traceback(repo, tmp_path):
    """A real SIGINT at 0-60 ms after the interpreter is up (site imported) and migrate
    starts importing: one line and 130, never a traceback."""
    import signal
    import time

    plan = write(tmp_path, MOVE)
    boot = (
        "import sys; from migrate.__main__ import main; sys.argv = ['migrate', *sys.argv[1:]]; "
        "sys.stderr.write('up\\n'); sys.stderr.flush(); main()"
    )
    for delay in (0.0, 0.005, 0.01, 0.02, 0.03, 0.045, 0.06):
        proc = subprocess.Popen(
            [sys.executable, "-c", boot, str(plan), "--dry-run", "--repo", str(repo)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert proc.stderr.readline() == "up\n"
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
        frames = re.findall(r'^  File "([^"]+)"', err, re.M)
        if frames == ["<string>"]:  # landed in this driver before main() began (a loaded CPU)
            continue
        assert "Traceback" not in err and "KeyboardInterrupt" not in err, (delay, err)
        assert proc.returncode in (130, 0), (delay, proc.returncode, err)
        if proc.returncode == 130:
            assert err.strip().endswith("interrupted"), err
