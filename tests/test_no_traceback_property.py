"""Property: no input reaches a user as a traceback, every rejection is exit 2 with a
position (plan problems) or a reason naming the argument, and nothing is written.

Generated plans (random keys, types, nesting, names with keywords, unicode and odd
characters, several encodings, raw byte damage) go through the in-process loader and
validator; generated argument lists for every command go through the CLI in process
(click's test runner) and, fewer, through real `python -m migrate` subprocesses. The
fixture repository is compared byte for byte after each run.
"""

from __future__ import annotations

import hashlib
import keyword
import os
import shutil
import subprocess
import sys
from io import StringIO
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from helpers import git, init_repo, write_tree
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from migrate.cli import main
from migrate.errors import MigrateError
from migrate.index import build_index
from migrate.plan import load_plan
from migrate.plan.validate import validate_plan

PLANS_IN_PROCESS = int(os.environ.get("PROP_PLANS", 2000))
CLI_IN_PROCESS = int(os.environ.get("PROP_CLI", 300))
CLI_SUBPROCESS = int(os.environ.get("PROP_SUB", 40))

FILES = {
    "python/pkg/__init__.py": "",
    "python/pkg/old/__init__.py": "",
    "python/pkg/old/norm.py": 'OP = "old.rmsnorm"\n\n\ndef rmsnorm(x):\n    return x\n',
    "python/pkg/old/bad.py": "def f(:\n",
    "python/pkg/old/data/cfg.json": "{}\n",
    "python/pkg/kernels/ops/layernorm/__init__.py": "",
    "python/app/__init__.py": "",
    "python/app/use.py": "from pkg.old.norm import rmsnorm\nimport pkg.old.norm\n",
    "test/test_norm.py": "def test_a():\n    pass\n\n\ndef test_b():\n    pass\n",
    "docs/x.md": "See pkg.old.norm.\n",
}

# -- names and plans --------------------------------------------------------------------

IDENT = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,7}", fullmatch=True)
ODD = st.text(
    st.characters(blacklist_categories=("Cs",)), min_size=0, max_size=10
)  # unicode, controls, separators
SEGMENT = st.one_of(
    IDENT, IDENT, st.sampled_from(keyword.kwlist), ODD, st.just("a" * 256), st.just("..")
)
KNOWN = st.sampled_from(
    [
        "pkg.old.norm",
        "pkg.old",
        "pkg.old.norm:rmsnorm",
        "pkg.old.bad:f",
        "pkg.new.norm",
        "pkg.app",
        "python/pkg/old/",
        "python/pkg/old/norm.py",
        "python/pkg/old/data/cfg.json",
        "python/pkg/old/sub/",
        "tools/norm.py",
        "test/test_norm.py",
        "test/test_a.py",
        "/etc/passwd",
        "C:\\x",
        "python/pkg/" + "/".join(["d" * 200] * 25),
    ]
)
NAME = st.one_of(
    KNOWN,
    st.lists(SEGMENT, min_size=1, max_size=5).map(".".join),
    st.lists(SEGMENT, min_size=1, max_size=5).map("/".join),
    st.tuples(st.lists(IDENT, min_size=1, max_size=3).map(".".join), SEGMENT).map(":".join),
    ODD,
)
SCALAR = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.floats(allow_nan=True, allow_infinity=True),
    NAME,
)
VALUE = st.recursive(
    SCALAR,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


def entry(keys: dict) -> st.SearchStrategy:
    """A mapping with (mostly) the right keys, each value a name or any value."""
    return st.fixed_dictionaries(
        {},
        optional={k: st.one_of(v, v, SCALAR) for k, v in keys.items()}
        | {"extra": SCALAR, "frm": NAME},
    )


MOVE = entry({"from": NAME, "to": NAME})
OP = entry({"from": NAME, "to": NAME})
SPLIT = entry(
    {
        "file": NAME,
        "into": st.lists(entry({"path": NAME, "take": st.lists(st.text(max_size=8), max_size=3)})),
    }
)
PLAN = st.fixed_dictionaries(
    {},
    optional={
        "version": st.one_of(st.just(1), st.just(1), VALUE),
        "roots": st.one_of(st.lists(NAME, max_size=3), VALUE),
        "moves": st.one_of(st.lists(MOVE, max_size=4), VALUE),
        "op_ids": st.one_of(st.lists(OP, max_size=2), VALUE),
        "splits": st.one_of(st.lists(SPLIT, max_size=2), VALUE),
        "groups": st.one_of(
            entry(
                {
                    "add": st.lists(SEGMENT, max_size=2),
                    "remove": st.lists(SEGMENT, max_size=2),
                    "rename": st.lists(entry({"from": SEGMENT, "to": SEGMENT}), max_size=2),
                }
            ),
            VALUE,
        ),
        "delete": st.one_of(st.lists(NAME, max_size=2), VALUE),
        "keep_prose": st.one_of(st.lists(NAME, max_size=2), VALUE),
        "colour": VALUE,
    },
)


def dump(data) -> str:
    out = StringIO()
    YAML(typ="rt").dump(data, out)
    return out.getvalue()


@st.composite
def plan_bytes(draw) -> bytes:
    """A plan file's bytes: generated YAML, sometimes damaged, in one of several encodings."""
    text = dump(draw(PLAN))
    damage = draw(st.sampled_from(["none", "none", "insert", "truncate", "comment", "indent"]))
    if damage == "insert" and text:
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.text(max_size=6)) + text[at:]
    elif damage == "truncate":
        text = text[: draw(st.integers(0, len(text)))]
    elif damage == "comment":
        text += "# " + draw(st.text(max_size=12)) + "\n"
    elif damage == "indent":
        text = text.replace("\n", "\n" + draw(st.sampled_from([" ", "\t", "   "])), 2)
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "utf-8-sig", "latin-1", "utf-16", "cp1252"]))
    data = text.encode(encoding, errors="replace")
    if draw(st.booleans()) and draw(st.booleans()):
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.binary(max_size=4)) + data[at:]
    return data


# -- the fixture and its fingerprint ------------------------------------------------------


@pytest.fixture(scope="module")
def fixture_repo(tmp_path_factory):
    root = tmp_path_factory.mktemp("prop") / "repo"
    root.mkdir()
    write_tree(root, FILES)
    init_repo(root)
    (root / "python/app/more.py").write_text("import pkg.old\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "second")
    shutil.copytree(root, root.parent / "pristine", symlinks=True)
    return root


def restore(repo: Path) -> None:
    """Put the fixture back after a command that succeeded in writing what it was asked to."""
    shutil.rmtree(repo)
    shutil.copytree(repo.parent / "pristine", repo, symlinks=True)


WRITERS = {"apply", "fix", "run", "recover"}  # exit 0 from these may mean: written as asked


def may_write(args: list[str]) -> bool:
    return bool(args) and (args[0] in WRITERS or args[0] not in main.commands)


def fingerprint(root: Path) -> str:
    """Every work-tree byte and mode, HEAD and the refs (not the object store or index)."""
    h = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(root):
        rel = Path(dirpath).relative_to(root)
        if rel.parts[:1] == (".git",):
            keep = rel == Path(".git") or rel.parts[:2] == (".git", "refs")
            if not keep:
                dirnames[:] = []
                continue
            filenames = [
                f for f in filenames if rel != Path(".git") or f in ("HEAD", "packed-refs")
            ]
            dirnames[:] = [d for d in dirnames if rel != Path(".git") or d == "refs"]
        for name in sorted(filenames):
            p = Path(dirpath) / name
            st_ = p.lstat()
            h.update(f"{rel / name}\0{st_.st_mode}\0".encode())
            h.update(os.readlink(p).encode() if p.is_symlink() else p.read_bytes())
        dirnames.sort()
    return h.hexdigest()


SETTINGS = dict(deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)


# -- 1. plans, in process -------------------------------------------------------------------


INDEXES: dict = {}


@settings(max_examples=PLANS_IN_PROCESS, **SETTINGS)
@given(data=plan_bytes())
def test_generated_plans_load_and_validate_without_a_crash(fixture_repo, tmp_path_factory, data):
    plan_file = tmp_path_factory.getbasetemp() / "gen-plan.yaml"
    plan_file.write_bytes(data)
    try:
        plan, errors = load_plan(plan_file)
    except MigrateError as exc:
        errors = exc.diagnostics
    else:
        if not errors:  # as `prepare` does, with the index built once per set of roots
            if plan.roots not in INDEXES:
                INDEXES[plan.roots] = build_index(fixture_repo, plan.roots)
            errors = validate_plan(plan, INDEXES[plan.roots])[0]
    for d in errors:
        assert d.message and "\n" not in d.message, d
        if d.pos.file == str(plan_file):
            assert d.pos.line >= 1 and d.pos.col >= 1, d  # a real position in the plan
        else:
            assert (fixture_repo / d.pos.file).exists(), d  # or a file of the repository


# -- 2. argument lists for every command -------------------------------------------------------


def _value_pool(repo: Path, plan_file: Path) -> dict[str, st.SearchStrategy]:
    outside = repo.parent / "outside.txt"
    outside.write_text("x\n")
    paths = st.sampled_from(
        [
            str(plan_file),
            str(plan_file),
            str(repo),
            str(repo / "python/app/use.py"),
            "python/app/use.py",
            "nonexistent.yaml",
            str(outside),
            str(repo.parent),
            "",
            "-",
            "a" * 300,
        ]
    )
    revs = st.sampled_from(
        [
            "HEAD",
            "HEAD..HEAD",
            "HEAD~1..HEAD",
            "HEAD..HEAD~1",
            "nosuchref..HEAD",
            "main...HEAD",
            "..HEAD",
            "HEAD..",
            "",
            "-h",
            "--all",
        ]
    )
    scratch = repo.parent / "scratch"
    scratch.mkdir(exist_ok=True)
    return {
        "path": paths,
        "rev": revs,
        "text": st.one_of(revs, NAME, st.text(max_size=8)),
        "scratch": scratch,
    }


def _param_tokens(param: click.Parameter, pool, draw) -> list[str]:
    """Tokens for one parameter: its flag and a value of its type (or a wrong one)."""
    if param.name in ("output", "save_spec", "keep"):  # where to write: never the fixture
        value = str(pool["scratch"] / draw(st.sampled_from(["out", "sub/out", ""])))
    elif isinstance(param.type, click.Path):
        value = draw(pool["path"])
    elif isinstance(param.type, click.Choice):
        value = draw(st.one_of(st.sampled_from(list(param.type.choices)), st.text(max_size=5)))
    elif isinstance(param.type, (click.types.IntParamType, click.types.FloatParamType)):
        value = draw(st.one_of(st.integers(-2, 5).map(str), st.text(max_size=4)))
    elif param.metavar and ".." in param.metavar:
        value = draw(pool["rev"])
    else:
        value = draw(pool["text"])
    if isinstance(param, click.Argument):
        return [value]
    flag = draw(st.sampled_from(param.opts))
    if param.is_flag:
        return [flag]
    return [flag, value]


CHEAP = {  # keep each run short: no wheel builds, no test runs
    "verify": ["--no-wheel"],
    "report": ["--no-verify"],
    "parity": ["--no-run"],
    "inventory": [],
}


@st.composite
def argv(draw, repo: Path, plan_file: Path) -> list[str]:
    pool = _value_pool(repo, plan_file)
    name = draw(st.sampled_from(sorted(main.commands)))
    cmd = main.commands[name]
    tokens: list[str] = [] if name == "run" and draw(st.booleans()) else [name]
    skip = ("help", "collect", "run_parity", "debug")  # --debug asks for tracebacks
    params = [p for p in cmd.params if p.name not in skip]
    for p in params:
        if isinstance(p, click.Argument) or draw(st.integers(0, 3)) == 0:
            tokens += _param_tokens(p, pool, draw)
    if draw(st.integers(0, 4)) == 0:
        at = draw(st.integers(0, len(tokens)))
        tokens.insert(at, draw(st.sampled_from(["--nope", "--", "-x", "", "ünï", "--repo"])))
    if name == "parity" and "--save-spec" not in tokens:
        tokens += ["--save-spec", str(pool["scratch"] / "spec.json")]
    return tokens + CHEAP.get(name, [])


def _plan_for_cli(data: bytes, plan_file: Path) -> None:
    plan_file.write_bytes(data)


@settings(max_examples=CLI_IN_PROCESS, **SETTINGS)
@given(st.data())
def test_generated_command_lines_in_process(fixture_repo, tmp_path_factory, data):
    plan_file = tmp_path_factory.getbasetemp() / "cli-plan.yaml"
    _plan_for_cli(data.draw(plan_bytes()), plan_file)
    args = data.draw(argv(fixture_repo, plan_file))
    before = fingerprint(fixture_repo)
    cwd = os.getcwd()
    os.chdir(fixture_repo)  # the default --repo is "."
    try:
        res = CliRunner().invoke(main, args)
    finally:
        os.chdir(cwd)
    out = res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), (args, out)
    assert "Traceback" not in out and "internal error" not in out, (args, out)
    assert res.exit_code in (0, 1, 2, 3), (args, res.exit_code, out)
    if res.exit_code == 2:
        assert ": error: " in out or "Error: " in out, (args, out)  # a position or a reason
    if res.exit_code == 0 and may_write(args) and fingerprint(fixture_repo) != before:
        restore(fixture_repo)  # a valid plan applied or fixed, as asked: not a rejection
    else:
        assert fingerprint(fixture_repo) == before, args


@settings(max_examples=CLI_SUBPROCESS, **SETTINGS)
@given(st.data())
def test_generated_command_lines_in_real_processes(fixture_repo, tmp_path_factory, data):
    plan_file = tmp_path_factory.getbasetemp() / "sub-plan.yaml"
    _plan_for_cli(data.draw(plan_bytes()), plan_file)
    args = data.draw(argv(fixture_repo, plan_file))
    before = fingerprint(fixture_repo)
    res = subprocess.run(
        [sys.executable, "-m", "migrate", *args],
        cwd=fixture_repo,
        capture_output=True,
        timeout=300,
    )
    err = res.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err and "internal error" not in err, (args, err)
    assert res.returncode in (0, 1, 2, 3), (args, res.returncode, err)
    if res.returncode == 2:
        assert ": error: " in err or "Error: " in err, (args, err)
    if res.returncode == 0 and may_write(args) and fingerprint(fixture_repo) != before:
        restore(fixture_repo)  # a valid plan applied or fixed, as asked: not a rejection
    else:
        assert fingerprint(fixture_repo) == before, args
