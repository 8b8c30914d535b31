"""Twelve real projects' own test suites, before and after a plan with symbol moves whose
callers bind the losing module (`from jmespath import exceptions; exceptions.LexerError`,
`from . import keys; key=keys.hashkey`, `from . import idnadata; idnadata.scripts[...]`,
`import cachetools.keys; cachetools.keys.hashkey(...)`) or re-export it by a star import
(toolz's and more-itertools' `from .recipes import *` in the package `__init__`), or
out of the package `__init__` itself (inflection), or bind it relatively and carry private
helpers (pluggy's `from . import _tracing`, `_PYPY`, `_formatdef`), or move a module bound
relatively (click's `from . import types`) or named in a string of generated code (jinja2's
compiler writes `from jinja2.runtime import ...` into every template), or imported
function-locally and patched by a string (platformdirs' `mocker.patch(
"platformdirs.android._android_folder")`, kept on the module that still reads it), or
read through a binding that the tests patch whole (colorama's `from . import win32;
win32.STDOUT` under `@patch('colorama.winterm.win32')`), or bound inside `try/except
ImportError` (boltons' `from .typeutils import make_sentinel`), plus module and package
moves (tests/fixtures/real/<name>.yaml). Each suite must give exactly
the same counts after `migrate apply`, `migrate verify` must pass, and a second run
(`fix`) finds nothing.
"""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from helpers import REPO_ROOT, git, init_repo
from realprojects import Project, imported_from, run_suite, tree
from realtrees import Unavailable

pytestmark = pytest.mark.slow

PLANS = REPO_ROOT / "tests" / "fixtures" / "real"
_CLICK_WARNINGS = "default::pytest.PytestRemovedIn10Warning"
PROJECTS = {
    "jmespath": Project("jmespath", "1.0.1", "jmespath", "."),
    "cachetools": Project("cachetools", "5.5.0", "cachetools", "src"),
    "idna": Project("idna", "3.10", "idna", "."),
    "toolz": Project("toolz", "1.0.0", "toolz", ".", ("toolz/tests",)),
    "more-itertools": Project("more-itertools", "10.5.0", "more_itertools", "."),
    "inflection": Project("inflection", "0.5.1", "inflection", ".", ("test_inflection.py",)),
    "pluggy": Project("pluggy", "1.5.0", "pluggy", "src", ("testing",)),
    # click's own warning filters make pytest's deprecation of one of its idioms an error
    "click": Project("click", "8.1.7", "click", "src", ("tests", "-W", _CLICK_WARNINGS)),
    "jinja2": Project("jinja2", "3.1.4", "jinja2", "src"),
    # its conftest's `pytest_ignore_collect(path, ...)` hook is refused by pytest 9; the
    # netstring ping-pong gives its socket 10 ms, which a loaded machine misses either side
    "boltons": Project(
        "boltons",
        "24.0.0",
        "boltons",
        ".",
        (
            "tests",
            "--noconftest",
            "--deselect",
            "tests/test_socketutils.py::test_socketutils_netstring",
        ),
    ),
    # its tests are a subpackage the plan moves: collected from the package
    "colorama": Project("colorama", "0.4.6", "colorama", ".", ("colorama",)),
    # the suites that need neither pytest-mock nor appdirs (not in this venv)
    "platformdirs": Project(
        "platformdirs", "4.3.6", "platformdirs", "src", ("tests/test_api.py", "tests/test_main.py")
    ),
}
# Binding-based rewrites each plan must produce (file -> text it must contain after),
# and the texts that must be gone (the uses the old spelling-based rewriter left behind).
EXPECT = {
    "jmespath": (
        {
            "jmespath/parsing/parser.py": [
                "from jmespath import errors\n",
                "except errors.LexerError as e:",
                "nodes.field(",
            ],
            "tests/test_parser.py": ["jmespath_errors.LexerError", "nodes.field('foo')"],
        },
        ["exceptions.LexerError", "ast.field(", "exceptions.IncompleteExpressionError"],
    ),
    "cachetools": (
        {
            "src/cachetools/__init__.py": [
                "from . import keyfuncs, keys\n",  # merged into the from-import, as isort would
                "def cached(cache, key=keyfuncs.hashkey,",
            ],
            "src/cachetools/keys.py": ["__all__ = ()\n"],
            "tests/test_cached.py": ["cachetools.keyfuncs.hashkey(0)"],
        },
        ["keys.hashkey", "keys.typedkey", "keys.methodkey"],
    ),
    "idna": (
        {
            "idna/core.py": ["from . import idnadata, scriptdata\n", "scriptdata.scripts[script]"],
            "idna/scriptdata.py": ["scripts = {", "joining_types = {"],
        },
        ["idnadata.scripts", "idnadata.joining_types"],
    ),
    "toolz": (
        {
            # the star re-export keeps toolz.partitionby, placed right after the star
            "toolz/__init__.py": [
                "from .itertoolz import *\nfrom .sequences import interleave as interleave\n"
                "from .sequences import remove as remove\n",
                "from .dicttoolz import *\nfrom .merging import valmap as valmap\n",
                "from .recipes import *\nfrom .sequences import partitionby as partitionby\n",
            ],
            "toolz/curried/__init__.py": [
                "from .dictops import merge, merge_with\n",
                "del dictops\n",
            ],
            "toolz/recipes.py": ["__all__ = ('countby',)\n"],
            "toolz/sequences.py": ["def partitionby(func, seq):"],
            "toolz/functoolz.py": ["from ._common.utils import no_default\n"],
            "toolz/tests/test_recipes.py": [
                "from toolz import first, identity, countby, partitionby"
            ],
        },
        ["from .utils import", "from toolz.utils import", "del exceptions"],
    ),
    "more-itertools": (
        {
            "more_itertools/__init__.py": [
                "from .recipes import *  # noqa\nfrom .cycling import dotproduct as dotproduct\n"
                "from .cycling import ncycles as ncycles\n",
                "from ._core.more import *  # noqa\n",
            ],
            "more_itertools/cycling.py": ["def ncycles(iterable, n):", "def dotproduct("],
            "more_itertools/recipes.py": ["from more_itertools.cycling import dotproduct\n"],
        },
        ["from .more import *"],
    ),
    "inflection": (
        {"test_inflection.py": ["import inflection.numbers\n", "inflection.numbers.ordinal("]},
        ["inflection.ordinal(", "inflection.ordinalize("],
    ),
    "pluggy": (
        {
            "src/pluggy/_manager.py": [
                "from ._trace import tracing as _tracing\n",  # the local name is kept
                "Final[_tracing.TagTracerSub] = _tracing.TagTracer().get(",
                "_formatdef(hookimpl.function)",
            ],
            "src/pluggy/__init__.py": [
                "from ._errors import PluginValidationError\n",
                "from ._errors import HookCallError\n",
            ],
            "src/pluggy/_introspect.py": [
                '_PYPY = hasattr(sys, "pypy_version_info")',  # the private helper came along
                "def varnames(func: object)",
                "def _formatdef(func: Callable[..., object]) -> str:",
            ],
            "src/pluggy/_errors.py": ["class HookCallError(Exception):", "self.plugin = plugin"],
            "testing/test_tracer.py": ["from pluggy._trace.tracing import TagTracer\n"],
        },
        [
            "from . import _tracing\n",
            "from ._result import HookCallError",
            "from pluggy._hooks import varnames",
            "from pluggy._manager import _formatdef",
        ],
    ),
    "click": (
        {
            "src/click/core.py": [
                "from ._impl import types\n",  # the relative binding, respelled
                "self.type: types.ParamType = types.convert_type(type, default)",
                "from .parser import join_options\n",
                "    from .completion import CompletionItem\n",  # under TYPE_CHECKING
                "        from click.completion import CompletionItem\n",  # function-local
            ],
            "src/click/parser.py": ["def join_options(options: t.Sequence[str])"],
            "src/click/shell_completion.py": ["from .completion import CompletionItem\n"],
            "tests/test_termui.py": ['monkeypatch.setattr(click._impl.termui, "isatty"'],
            "tests/test_utils.py": ["import click._args\n", 'click._args._expand_args(["~"])'],
            "tests/test_info_dict.py": ["click._impl.types.FuncParamType(range)"],
        },
        [
            "click._termui_impl",
            "from . import types\n",
            "click.utils._expand_args",
            "from .formatting import join_options",
            "from click.shell_completion import CompletionItem",
        ],
    ),
    "jinja2": (
        {
            "src/jinja2/compiler.py": [
                # the import the compiler writes into every compiled template
                'self.writeline("from jinja2._rt.runtime import " + ", ".join(exported_names))',
                "        from ._rt.runtime import exported\n",
                "from .evalctx import EvalContext\n",
                "from .compiling.optimizer import Optimizer\n",
            ],
            "src/jinja2/filters.py": ["    from .evalctx import EvalContext\n"],
            "src/jinja2/lorem.py": ["    from .constants import LOREM_IPSUM_WORDS\n"],
            "src/jinja2/nodes.py": ["EvalContext"],
            "tests/test_ext.py": ['extensions=["jinja2.extensions.builtin.i18n"]'],
        },
        [
            "from jinja2.runtime import",
            "from .runtime import",
            '"jinja2.ext.',
            "from .nodes import EvalContext",
            "from .utils import LRUCache",
        ],
    ),
    "boltons": (
        {
            "boltons/queueutils.py": [
                "    from .sentinels import make_sentinel\n",  # inside try/except ImportError
                "    from .structures.listutils import BList\n",
            ],
            "boltons/strutils.py": [
                "from boltons.intlists import format_int_list, parse_int_list\n",  # back
                "'asciify', 'is_ascii', 'is_uuid', 'html2text',\n",
                "'bytes2human', 'find_hashtags', 'a10n',\n",  # two adjacent names gone
            ],
            "tests/test_strutils.py": [
                "from boltons import ansiutils, gziputils, intlists, strutils\n",
                "ansiutils.strip_ansi(",
                "intlists.parse_int_list(",
                "gziputils.gzip_bytes(",
            ],
            "boltons/io/ioutils.py": ["        >>> from boltons.io import ioutils\n"],
            "tests/test_ioutils.py": ["from boltons.io import ioutils\n"],
        },
        [
            "strutils.strip_ansi",
            "strutils.parse_int_list",
            "from .typeutils import make_sentinel",
            "from boltons import ioutils",
            "from .listutils import",
        ],
    ),
    "colorama": (
        {
            "colorama/windows/term.py": [
                "from . import win32\n",
                "handle = win32.STDOUT\n",  # kept: the tests patch winterm's win32 whole
                "            handle = win32.STDERR\n",
            ],
            "colorama/windows/win32.py": [
                # below the licence line, not above it
                "LICENSE file.\n\nfrom colorama.handles import STDERR, STDOUT\n",
            ],
            "colorama/ansitowin32.py": [
                "from .ansi import AnsiFore, AnsiBack, AnsiStyle, Style\nfrom .codes import BEL\n",
                "from .windows.term import enable_vt_processing, WinTerm, WinColor, WinStyle\n",
            ],
            "colorama/ansi.py": ["from colorama.codes import CSI, code_to_chars\n"],
            "colorama/testing/tests/winterm_test.py": ["@patch('colorama.windows.term.win32')"],
            "colorama/testing/tests/initialise_test.py": [
                "@patch('colorama.windows.win32.SetConsoleTextAttribute')",
            ],
            "colorama/testing/tests/ansitowin32_test.py": [
                "from colorama.windows.win32 import ENABLE_VIRTUAL_TERMINAL_PROCESSING\n",
            ],
        },
        [
            "'colorama.winterm.",
            "'colorama.win32.",
            "from .winterm import",
            "from ..win32 import",
        ],
    ),
    "platformdirs": (
        {
            "src/platformdirs/__init__.py": [
                "    from platformdirs.platforms.unix import Unix as _Result\n",  # per platform
                "        from platformdirs._android_probe import _android_folder  # noqa",
                "            from platformdirs.platforms.android import Android  # noqa: PLC0415\n",
            ],
            "src/platformdirs/platforms/android.py": [
                "from platformdirs._android_probe import _android_folder\n",  # imported back
            ],
            "src/platformdirs/platforms/windows.py": [
                "from platformdirs._winenv import get_win_folder_from_env_vars\n",
            ],
            "tests/test_android.py": [
                # kept on the module that reads it through its own globals
                'mocker.patch("platformdirs.platforms.android._android_folder", ',
                "    from platformdirs._android_probe import _android_folder  # noqa: PLC0415\n",
            ],
            "tests/test_unix.py": [
                "from platformdirs.platforms import unix\n",
                'mocker.patch("platformdirs.platforms.unix._get_user_dirs_folder")',
            ],
        },
        [
            "from platformdirs.android import",
            "from platformdirs.unix import",
            '"platformdirs.unix.',
        ],
    ),
}


def _migrate(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "migrate.cli", *args],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
    )


@pytest.fixture(scope="module", params=sorted(PROJECTS))
def project_run(request, tmp_path_factory):
    p = PROJECTS[request.param]
    try:
        pristine = tree(p)
    except Unavailable as exc:  # no registry access
        pytest.skip(str(exc))
    where = tmp_path_factory.mktemp(p.name) / p.stem
    shutil.copytree(pristine, where, ignore=shutil.ignore_patterns(".complete"))
    init_repo(where)
    base = git(where, "rev-parse", "HEAD").strip()
    origin = imported_from(where, p, p.package)
    before = run_suite(where, p)
    assert not git(where, "status", "--porcelain"), "the suite wrote into the tree"
    plan = PLANS / f"{p.name}.yaml"
    applied = _migrate("apply", str(plan), "--repo", str(where))
    assert applied.returncode == 0, applied.stdout + applied.stderr
    after = run_suite(where, p)
    return {
        "project": p,
        "tree": where,
        "pristine": pristine,
        "base": base,
        "plan": plan,
        "origin": origin,
        "before": before,
        "after": after,
    }


def test_suite_runs_the_tree_and_passes_before(project_run):
    p, where = project_run["project"], project_run["tree"]
    assert project_run["origin"].startswith(str(where / p.root))
    counts, out = project_run["before"]
    assert counts["failed"] == 0 and counts["errors"] == 0 and counts["passed"] >= 30, out[-3000:]


def test_suite_gives_the_same_counts_after(project_run):
    before, _ = project_run["before"]
    after, out = project_run["after"]
    assert after == before, out[-5000:]


def test_uses_follow_by_binding(project_run):
    p, where, pristine = project_run["project"], project_run["tree"], project_run["pristine"]
    present, gone = EXPECT[p.name]
    for rel, needles in present.items():
        text = (where / rel).read_text(encoding="utf-8")
        for needle in needles:
            assert needle in text, (rel, needle)
    for needle in gone:
        # not vacuous: the pristine tree uses them
        assert any(needle in f.read_text("utf-8") for f in pristine.rglob("*.py")), needle
        left = [
            f.relative_to(where).as_posix()
            for f in where.rglob("*.py")
            if ".git" not in f.parts and needle in f.read_text("utf-8")
        ]
        assert left == [], (needle, left)


def test_verify_passes_and_a_second_run_finds_nothing(project_run):
    where, base, plan = project_run["tree"], project_run["base"], project_run["plan"]
    res = _migrate(
        "verify", f"{base}..HEAD", "--plan", str(plan), "--repo", str(where), "--no-wheel"
    )
    assert res.returncode == 0 and "verify: PASS" in res.stdout, res.stdout + res.stderr
    res = _migrate("fix", str(plan), "--repo", str(where), "--dry-run")
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.startswith("0 edit(s)"), res.stdout


def test_toolz_target_shadowing_a_package_binding_is_refused(tmp_path):
    """The same toolz plan with the target `toolz.partition`: the package binds
    `partition` (the function, by `from .itertoolz import *`), and importing a submodule
    of that name would replace it (the suite had 8 collection errors and verify said
    PASS). The dry run and apply refuse it, exit 2, nothing written."""
    p = PROJECTS["toolz"]
    try:
        pristine = tree(p)
    except Unavailable as exc:  # no registry access
        pytest.skip(str(exc))
    where = tmp_path / p.stem
    shutil.copytree(pristine, where, ignore=shutil.ignore_patterns(".complete"))
    init_repo(where)
    head = git(where, "rev-parse", "HEAD")
    plan = tmp_path / "toolz-partition.yaml"
    plan.write_text(
        (PLANS / "toolz.yaml").read_text().replace("toolz.sequences", "toolz.partition")
    )
    for args in (["run", str(plan), "--dry-run"], ["apply", str(plan)]):
        res = _migrate(*args, "--repo", str(where))
        assert res.returncode == 2, res.stdout + res.stderr
        assert "binds `partition` by `from toolz.itertoolz import *`" in res.stdout + res.stderr
    assert git(where, "rev-parse", "HEAD") == head and git(where, "status", "--porcelain") == ""
