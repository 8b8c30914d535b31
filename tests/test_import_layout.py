"""Import layout: a split keeps the statement's layout and every comment in it; an added
import goes where isort/ruff would put it in a sorted block (and respects `isort: skip`
/ `isort: off`); nothing is hoisted out of a function. Results are executed."""

from __future__ import annotations

import pytest
from rewrite_helpers import GOLDEN_DIR, golden_case, run_golden_case

# The cases are the goldens golden/rewrite/layout-*/ (tests/test_rewrite_golden.py compares
# their output byte for byte); here each result is executed and run a second time.
LAYOUT = sorted(
    p.name for p in GOLDEN_DIR.iterdir() if p.name.startswith("layout-") and (p / "before").is_dir()
)


@pytest.mark.parametrize("case", [c for c in LAYOUT if c.startswith("layout-split-")])
def test_split_keeps_layout_and_comments(make_repo, tmp_path, case):
    before = golden_case(case).files["app.py"]
    _, _, out, _ = run_golden_case(make_repo, tmp_path, case)
    after = (out / "app.py").read_text()
    # every comment of the statement is still there; the moved names left the old module
    comments = [line.split("#", 1)[1] for line in before.splitlines() if "#" in line]
    assert all(c in after for c in comments) and "from pkg.new import" in after


@pytest.mark.parametrize("case", [c for c in LAYOUT if c.startswith("layout-place-")])
def test_added_import_goes_where_isort_would(make_repo, tmp_path, case):
    before = golden_case(case).files["app.py"]
    _, _, out, _ = run_golden_case(make_repo, tmp_path, case)
    after = (out / "app.py").read_text()
    assert "new.a()" in after and "mod.a()" not in after
    new_imports = [line for line in after.splitlines() if "import" in line and "new" in line]
    assert len(new_imports) == 1
    # never hoisted out of the binding's scope: same indentation as the binding import
    binding = next(line for line in before.splitlines() if "pkg" in line and "import" in line)
    indent = binding[: len(binding) - len(binding.lstrip())]
    assert new_imports[0].startswith(indent) and not new_imports[0][len(indent)].isspace()


def test_one_finaliser_applies_every_scheduled_import_change():
    """Forms schedule on the file's scratch area; one finaliser places, merges, drops
    and removes, so the result is what isort would leave."""
    import ast

    from rewrite_helpers import dedent

    from migrate.changes import apply_edits
    from migrate.rewrite.import_scratch import ImportScratch

    text = dedent(
        """
        import os
        import sys

        from pkg import a, c
        from zeta import Q, R


        def f():
            return a, c, Q, os, sys
        """
    )
    tree = ast.parse(text)
    scratch = ImportScratch("m.py", text)
    span = (text.index("from pkg"), text.index("\nfrom zeta"))
    scratch.add("from pkg import b", span, "", "after", "placed")
    scratch.add("import abc", span, "", "after", "placed")
    assert scratch.has_adds(span)
    scratch.add_before("import pkg.x", text.index("def f"), "", "chain needs it")
    scratch.add_before("import pkg.x", text.index("def f"), "", "chain needs it")  # once
    scratch.remove(tree.body[0], list(tree.body[0].names), "unused")
    zeta = (text.index("from zeta"), text.index(", R") + 3)
    scratch.drop(zeta, {"R"})
    out = apply_edits(text, scratch.finalise(tree))
    assert out == dedent(
        """
        import abc
        import sys

        from pkg import a, b, c
        from zeta import Q


        import pkg.x
        def f():
            return a, c, Q, os, sys
        """
    )


def test_the_finaliser_lays_out_a_module_top_and_a_new_modules_header():
    """The symbols pass schedules the imports moved definitions need; the finaliser puts
    `__future__` imports after the docstring, the rest after the last top-level import
    (never inside an edit it is told to keep clear of), and lays out a new module's
    header: each group a blank line apart, two blank lines before the code."""
    from rewrite_helpers import dedent

    from migrate.changes import apply_edits
    from migrate.rewrite.import_scratch import ImportScratch

    text = dedent(
        '''
        """Doc."""
        import os

        X = os.sep
        '''
    )

    def schedule(scratch: ImportScratch, clear_of=()) -> None:
        scratch.add_top("from __future__ import annotations", "future", future=True)
        scratch.add_top("import json", "imports", clear_of=clear_of)
        scratch.add_top("import json", "imports")  # once
        scratch.add_top("from typing import TYPE_CHECKING", "imports")
        scratch.add_top("from pkg import T", "imports", type_checking=True)

    top = ImportScratch("m.py", text)
    schedule(top)
    edits = top.finalise(None)
    assert [e.reason for e in edits] == ["future", "imports"]
    assert apply_edits(text, edits) == dedent(
        '''
        """Doc."""
        from __future__ import annotations
        import os
        import json
        from typing import TYPE_CHECKING
        if TYPE_CHECKING:
            from pkg import T

        X = os.sep
        '''
    )
    # an edit that spans the insertion point (a cut running past the imports) is kept clear
    cut = (text.index("import os"), text.index("X ="))
    clear = ImportScratch("m.py", text)
    clear.add_top("import json", "imports", clear_of=(cut,))
    (edit,) = clear.finalise(None)
    assert edit.start == cut[1]

    new = ImportScratch("n.py", "", new_module=True)
    schedule(new)
    assert apply_edits("", new.finalise(None)) == (
        "from __future__ import annotations\n\n"
        "import json\nfrom typing import TYPE_CHECKING\n\n"
        "if TYPE_CHECKING:\n    from pkg import T\n\n\n"
    )


def test_removing_imports_keeps_valid_statements():
    """Removal layout: a plain `import a, b` loses a name as a plain import; a statement
    whose every name goes leaves with its trailing comment; one sharing its line with
    another statement is left alone. (Before: `import os, sys import sys`,
    `import json import   # noqa: F401` and `x = 1; import re import `.)"""
    import ast

    from migrate.changes import apply_edits
    from migrate.rewrite.import_scratch import ImportScratch

    text = "import os, sys  # noqa\nimport json  # noqa: F401\nx = 1; import re\n"
    tree = ast.parse(text)
    scratch = ImportScratch("m.py", text)
    scratch.remove(tree.body[0], [tree.body[0].names[0]], "unused")
    scratch.remove(tree.body[1], list(tree.body[1].names), "unused")
    scratch.remove(tree.body[3], list(tree.body[3].names), "unused")
    out = apply_edits(text, scratch.finalise(tree))
    assert out == "import sys  # noqa\nx = 1; import re\n"
    ast.parse(out)
    # a parenthesized statement keeps its layout (before: left alone, the name stayed)
    text = "from pkg import (\n    a,  # first\n    b,  # second\n)\n"
    tree = ast.parse(text)
    scratch = ImportScratch("m.py", text)
    scratch.remove(tree.body[0], [tree.body[0].names[0]], "unused")
    assert apply_edits(text, scratch.finalise(tree)) == "from pkg import (\n    b,  # second\n)\n"


def _ruff_isort_findings(tree, own_config: bool = False) -> str:
    """ruff's own verdict on a result: its default `I` rules and E302 (`own_config`: the
    tree's own ruff settings), first party found as ruff finds it (run from the tree's
    root); "" when clean."""
    import subprocess
    import sys
    from pathlib import Path

    ruff = Path(sys.executable).parent / "ruff"
    assert ruff.exists(), "ruff is a dev dependency: the check must run, not be skipped"
    cmd = [str(ruff), "check", *([] if own_config else ["--isolated"]), "--preview"]
    cmd += ["--no-fix", "--no-cache"]
    cmd += ["--select", "I,E302", "--output-format", "concise", "."]
    run = subprocess.run(cmd, cwd=tree, capture_output=True, text=True)
    return "" if run.returncode == 0 else run.stdout + run.stderr


@pytest.mark.parametrize("case", [c for c in LAYOUT if c.startswith("layout-sort-")])
def test_rewritten_imports_are_where_isort_puts_them(make_repo, tmp_path, case):
    """Every import the rewrite respells, splits or adds in a block that was sorted goes
    where isort/ruff put it (merged into the block's `from M import ...` of the same
    module): ruff finds nothing in the result, which is executed and run twice. (Before:
    `from .z import B` stayed between `.a` and `.c`; `from pkg import access` and
    `datetimes` were two statements above the block's `from pkg import types, utils`,
    and the split-out `from pkg.datetimes import (...)` came after `pkg.exceptions`.)"""
    before = golden_case(case).files
    assert _ruff_isort_findings_of(tmp_path / "before", before) == ""
    _, _, out, _ = run_golden_case(make_repo, tmp_path, case)
    assert _ruff_isort_findings(out) == ""


def _ruff_isort_findings_of(root, files: dict, own_config: bool = False) -> str:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return _ruff_isort_findings(root, own_config)


@pytest.mark.parametrize("case", [c for c in LAYOUT if c.startswith("layout-config-")])
def test_imports_follow_the_projects_own_isort_settings(make_repo, tmp_path, case):
    """A project's own isort/ruff settings (its pyproject.toml, found walking up from each
    file) decide the order and the layout: ruff with that configuration finds nothing
    in the result, which is executed and run twice. (Before: the defaults: `from pkg
    import hooks, introspect` merged under force-single-line; the new module's `import
    sys` above `from inspect import signature` under force-sort-within-sections, and one
    blank line after its imports where lines-after-imports wants two.)"""
    before = golden_case(case).files
    assert _ruff_isort_findings_of(tmp_path / "before", before, own_config=True) == ""
    _, _, out, _ = run_golden_case(make_repo, tmp_path, case)
    assert _ruff_isort_findings(out, own_config=True) == ""


def _relaid(text: str, old: str, new: str, order=None) -> str:
    """`text` with `old` (one occurrence) respelled to `new` by a form's edit, then the
    layout pass over it (first party: pkg)."""
    from migrate.changes import apply_edits
    from migrate.rewrite.import_layout import relaid
    from migrate.rewrite.import_order import ImportOrder
    from migrate.rewrite.spans import make_edit

    at = text.index(old)
    edit = make_edit("m.py", text, at, at + len(old), new, "code", "respelled")
    placed, folded = relaid("m.py", text, [edit], order or ImportOrder(frozenset({"pkg"})))
    gone = {id(e) for e in folded}
    return apply_edits(text, [e for e in [edit] if id(e) not in gone] + placed)


def test_the_layout_pass_sorts_only_what_it_may():
    """A respelled statement moves to its sorted place only in a sorted group; an
    unsorted group, an `isort:` pragma, a star import it would pass, and a file keeping
    one name per statement (no merge) leave it where the edit put it."""
    sorted_block = "import os\n\nfrom pkg.a import A\nfrom pkg.b import B\nfrom pkg.c import C\n"
    # an import of the repository's own code keeps its place among the others: the order
    # a package initialises its modules in is behaviour (invoke's `__init__` runs
    # `.collection` before `.program`, which reads `Collection` from the package)
    assert _relaid(sorted_block, "pkg.a", "pkg.z") == sorted_block.replace("pkg.a", "pkg.z")
    stdlib = "import os\nimport sys\n\nfrom pkg.a import A\n"
    assert _relaid(stdlib, "import os", "import zlib") == (
        "import sys\nimport zlib\n\nfrom pkg.a import A\n"
    )
    # a new section gets its own group, a blank line apart
    assert _relaid(sorted_block, "from pkg.c import C", "from typing import C") == (
        "import os\nfrom typing import C\n\nfrom pkg.a import A\nfrom pkg.b import B\n"
    )
    unsorted = "from pkg.b import B\nfrom pkg.a import A\nfrom pkg.c import C\n"
    assert _relaid(unsorted, "pkg.b", "pkg.z") == unsorted.replace("pkg.b", "pkg.z")
    skip = sorted_block.replace("import A\n", "import A  # isort: skip\n")
    assert _relaid(skip, "pkg.a", "pkg.z") == skip.replace("pkg.a", "pkg.z")
    star = "from pkg.a import A\nfrom pkg.c import *\n"
    assert _relaid(star, "pkg.a", "pkg.z") == star.replace("pkg.a", "pkg.z")
    single = "from pkg.a import A\nfrom pkg.a import B\nfrom pkg.c import C\n"
    assert _relaid(single, "from pkg.c", "from pkg.a") == (
        "from pkg.a import A\nfrom pkg.a import B\nfrom pkg.a import C\n"
    )
    combined = "from pkg.a import A\nfrom pkg.b import B\n"
    assert _relaid(combined, "from pkg.b", "from pkg.a") == "from pkg.a import A, B\n"


def test_what_the_edits_write_is_formatted_as_the_project_formats_imports():
    """A statement the edits wrote gets its names sorted, an aliased name its own
    statement (combine-as-imports off), one name per statement under force-single-line,
    and a wrap past the line length, as isort/ruff write it; a block whose statements
    were not so formatted before is left as the edits have it. (Before: packaging's
    `from ._platforms import manylinux as _manylinux, musllinux as _musllinux` and
    `from ._platforms.mac import AppleVersion, _32_BIT_INTERPRETER, ...` stayed as
    written, ruff I001.)"""
    from migrate.rewrite.import_order import ImportOrder
    from migrate.rewrite.isort_config import ImportStyle

    block = "import os\n\nfrom zz import a, b\n"
    assert _relaid(block, "from zz import a, b", "from yy import b as bb, a") == (
        "import os\n\nfrom yy import a\nfrom yy import b as bb\n"
    )
    assert _relaid(block, "from zz import a, b", "from yy import b, A_X, C") == (
        "import os\n\nfrom yy import A_X, C, b\n"
    )
    short = ImportOrder(frozenset({"pkg"}), ImportStyle(line_length=20))
    assert _relaid(block, "from zz import a, b", "from yy import alpha, beta", short) == (
        "import os\n\nfrom yy import (\n    alpha,\n    beta,\n)\n"
    )
    single = ImportOrder(frozenset({"pkg"}), ImportStyle(force_single_line=True))
    assert _relaid("import os\n\nfrom zz import a\n", "zz import a", "yy import b, a", single) == (
        "import os\n\nfrom yy import a\nfrom yy import b\n"
    )
    untidy = "import os\n\nfrom zz import b, a\n"
    assert _relaid(untidy, "from zz import b, a", "from yy import b as bb, a") == (
        "import os\n\nfrom yy import b as bb, a\n"
    )


def _scratch_add(text: str, anchor: str, stmt: str, **kw) -> str:
    import ast

    from migrate.changes import apply_edits
    from migrate.rewrite.import_scratch import ImportScratch

    scratch = ImportScratch("m.py", text, **kw)
    at = text.index(anchor)
    scratch.add(stmt, (at, at + len(anchor)), "", "added", "added, placed")
    return apply_edits(text, scratch.finalise(ast.parse(text)))


def test_the_finaliser_places_an_added_import_by_the_layout_passs_model():
    """The import finaliser and the layout pass are one model (`placed_beside` is
    `_place` on the block with the addition right after its binding): an added import
    goes into its own section's group, never crosses an import of the repository's own
    code, and is merged only as the project's settings allow. (Before, the finaliser
    sorted with a sectionless key: `import json` went between `import os`'s group and
    the first-party one it does not belong to, and `from pkg import z` merged under
    force-single-line.)"""
    from migrate.rewrite.import_order import ImportOrder
    from migrate.rewrite.isort_config import ImportStyle

    text = "import os\n\nfrom pkg import b\nfrom pkg.c import C\n"
    assert _scratch_add(text, "from pkg import b", "import json") == (
        "import json\nimport os\n\nfrom pkg import b\nfrom pkg.c import C\n"
    )
    own = ImportOrder(frozenset({"pkg"}))
    # `pkg.a` sorts above `pkg.b`, but runs after it where the edits put it
    assert _scratch_add(text, "from pkg.c import C", "from pkg.a import A", order=own) == (
        text + "from pkg.a import A\n"
    )
    assert _scratch_add(text, "from pkg import b", "from pkg import a", order=own) == (
        "import os\n\nfrom pkg import a, b\nfrom pkg.c import C\n"
    )
    single = ImportOrder(frozenset({"pkg"}), ImportStyle(force_single_line=True))
    assert _scratch_add(text, "from pkg import b", "from pkg import z", order=single) == (
        "import os\n\nfrom pkg import b\nfrom pkg import z\nfrom pkg.c import C\n"
    )


def test_lines_between_types_keeps_the_blank_line_between_import_and_from():
    """trial24 T50 (attrs' tests): under `lines-between-types = 1` a section's `import`
    statements and its `from` statements stay a blank line apart when the layout pass
    re-sorts a respelled import or places an added one (none under
    force-sort-within-sections, where the two kinds mix). (Before: `import pkg` /
    `from pkg.b import Y` with the blank line gone, ruff I001.)"""
    from migrate.rewrite.import_order import ImportOrder
    from migrate.rewrite.isort_config import ImportStyle

    one = ImportOrder(frozenset(), ImportStyle(lines_between_types=1))
    text = "import yy\n\nfrom yy import a\nfrom yy.b import Y\n"
    assert _relaid(text, "from yy import a", "from yy.z import a", order=one) == (
        "import yy\n\nfrom yy.b import Y\nfrom yy.z import a\n"
    )
    # an added `from` import: below the blank line, or a blank line apart from `import yy`
    assert _scratch_add(text, "from yy.b import Y", "from yy.c import C", order=one) == (
        text + "from yy.c import C\n"
    )
    lone = "import os\n\nimport yy\n"
    assert _scratch_add(lone, "import yy", "from yy.c import C", order=one) == (
        lone + "\nfrom yy.c import C\n"
    )
    mixed = ImportOrder(
        frozenset(), ImportStyle(lines_between_types=1, force_sort_within_sections=True)
    )
    assert _scratch_add(lone, "import yy", "from yy.c import C", order=mixed) == (
        lone + "from yy.c import C\n"
    )


def test_imports_under_type_checking_are_sorted_whatever_they_initialise():
    """An `if TYPE_CHECKING:` body never runs, so no init order can change there: a
    respelled own import in it goes to its sorted place even where every module is loud
    (jinja2's filters.py: `from ._rt.runtime import Context` was kept after
    `.evalctx`, ruff I001). Outside such a block the same edit keeps its place."""
    from migrate.changes import apply_edits
    from migrate.rewrite.import_layout import relaid
    from migrate.rewrite.import_order import ImportOrder
    from migrate.rewrite.spans import make_edit

    class Loud:  # every module initialises something another could observe
        def same(self, a, b):
            return [id(n) for n in a] == [id(n) for n in b]

        def quiet(self, node):
            return False

    block = "from .a import A\nfrom .b import B\nfrom .c import C\n"
    guarded = "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n" + "".join(
        "    " + ln + "\n" for ln in block.splitlines()
    )
    kept = "from .a import A\nfrom .z import B\nfrom .c import C\n"
    placed_ = "    from .a import A\n    from .c import C\n    from .z import B\n"
    for text, want in ((guarded, guarded.split("    ")[0] + placed_), (block, kept)):
        at = text.index("from .b")
        edit = make_edit("m.py", text, at, at + len("from .b"), "from .z", "code", "respelled")
        placed, folded = relaid("m.py", text, [edit], ImportOrder(frozenset({"pkg"})), Loud())
        gone = {id(e) for e in folded}
        assert apply_edits(text, placed + [e for e in [edit] if id(e) not in gone]) == want


def test_an_own_import_passes_loud_ones_when_what_it_initialises_ran_already(make_repo):
    """When the whole block cannot be sorted (a respelled import of the loud `pkg.a`
    would run before `pkg.b`), each other respelled own import still goes to its sorted
    place where the block initialises one order with it at either place: `pkg.q` is
    quiet but imports the loud `pkg.u`, which `pkg.b` above already initialised (jinja2's
    environment.py: `.evalctx` and `.caching` were kept below `.lexer` and `.utils` because
    `._rt.runtime` could not move, ruff I001); `pkg.a` keeps its place after what the
    edits run before it (and the three `._rt.runtime` imports their order)."""
    from migrate.changes import ChangeSet, apply_edits
    from migrate.index import build_index
    from migrate.materialize import materialize
    from migrate.rewrite.import_layout import relaid
    from migrate.rewrite.import_order import ImportOrder
    from migrate.rewrite.quiet_modules import InitOrder
    from migrate.rewrite.spans import make_edit

    loud = "import os\n\nos.environ['{0}'] = '1'\n"
    files = {
        "pkg/__init__.py": "",
        "pkg/u.py": loud.format("U"),
        "pkg/a.py": loud.format("A"),
        "pkg/b.py": "from pkg import u\n" + loud.format("B"),
        "pkg/c.py": "C = 1\n",
        "pkg/d.py": loud.format("D"),
        "pkg/e.py": "E = 1\n",
        "pkg/q.py": "from pkg import u\n\nC = 2\n",
    }
    text = "from .b import B\nfrom .c import C\nfrom .d import D\nfrom .e import E\n"
    files["pkg/m.py"] = text
    model = InitOrder(materialize(ChangeSet(), build_index(make_repo(files))))
    order = ImportOrder(frozenset({"pkg"}))
    edits = []
    for old, new in ((".c ", ".q "), (".e ", ".a ")):
        at = text.index(old)
        edits.append(make_edit("pkg/m.py", text, at, at + 3, new, "code", "respelled"))
    placed, folded = relaid("pkg/m.py", text, edits, order, model.of_file("pkg/m.py"))
    gone = {id(e) for e in folded}
    assert apply_edits(text, placed + [e for e in edits if id(e) not in gone]) == (
        "from .b import B\nfrom .d import D\nfrom .q import C\nfrom .a import E\n"
    )


def test_an_own_import_may_pass_the_plain_import_of_its_package():
    """`import P.sub` runs P's `__init__` before P.sub, so sorting it past a plain
    `import P` initialises the same modules in the same order: allowed; passing any other
    own import is not. (Before: tenacity's tests got `import tenacity._sleep.nap` above
    `import tenacity`, left there, ruff I001.)"""
    block = "import pkg\nimport pkg.zz\n"
    assert _relaid(block, "", "import pkg.aa\n") == ("import pkg\nimport pkg.aa\nimport pkg.zz\n")
    other = "import pkg.b\nimport pkg.c\n"  # pkg.d past pkg.b and pkg.c: another order
    assert _relaid(other, "", "import pkg.d\n") == "import pkg.d\n" + other


def test_an_import_added_to_a_module_without_imports_is_set_apart():
    """A module with no import before gets the added one a blank line apart from the code
    (two before a def/class: isort's lines-after-imports, or the project's). (Before:
    `from pkg.consts import g` was glued to `Y = 0` / `def h():`, ruff I001: trial23 T24.)"""
    from migrate.changes import apply_edits
    from migrate.rewrite.import_order import ImportOrder
    from migrate.rewrite.import_scratch import ImportScratch
    from migrate.rewrite.isort_config import ImportStyle

    def added(text: str, **kw) -> str:
        scratch = ImportScratch("m.py", text, **kw)
        scratch.add_top("from pkg.consts import g", "moved")
        return apply_edits(text, scratch.finalise(None))

    imp = "from pkg.consts import g\n"
    assert added("Y = 0\n") == imp + "\nY = 0\n"
    assert added("def h():\n    pass\n") == imp + "\n\ndef h():\n    pass\n"
    assert added("\ndef h():\n    pass\n") == imp + "\n\ndef h():\n    pass\n"
    two = ImportOrder(style=ImportStyle(lines_after_imports=2))
    assert added("Y = 0\n", order=two) == imp + "\n\nY = 0\n"
    assert added("import os\nY = 0\n") == "import os\n" + imp + "Y = 0\n"  # as it was


def test_an_own_import_of_a_quiet_module_goes_to_its_sorted_place(make_repo, tmp_path):
    """trial23 T21: a respelled own import whose modules are quiet (they bind their names
    and run nothing of the project at import) goes to its sorted place: no module can tell
    when it ran. Executed, run twice, ruff clean. (Before: `from pkg.z import B` stayed
    between `pkg.a` and `pkg.c`, ruff I001, as in pluggy's and marshmallow's results.)"""
    _, _, out, _ = run_golden_case(make_repo, tmp_path, "layout-own-order-quiet-module-sorted")
    assert _ruff_isort_findings(out) == ""
    assert (out / "pkg/use.py").read_text().startswith("from .a import A\nfrom .c import C\n")


def test_an_own_import_of_a_module_that_imports_own_code_keeps_its_place(make_repo, tmp_path):
    """The new module imports `pkg.a`: when it runs is behaviour, so its import stays
    where the edit put it (executed, run twice)."""
    _, _, out, _ = run_golden_case(make_repo, tmp_path, "layout-own-order-respelled-stays")
    assert (
        "from .a import A\nfrom .z import B\nfrom .c import C\n" in (out / "pkg/use.py").read_text()
    )


def test_what_makes_a_module_loud_and_when_two_orders_are_one(make_repo):
    """Quiet: docstring, imports (followed), def/class whose decorators, bases and
    defaults call only builtins and names imported from outside the repository, plain-name
    assignments of such values, import-only try. Loud: a statement call, a store into
    anything but a name, a call of the repository's own code at import, an own-code
    decorator (a registry), a base class imported from the repository. Two orders of a
    block are one when the loud modules they initialise run in one order, each with what
    it imports under it (quiet ones are transparent)."""
    import ast

    from migrate.changes import ChangeSet
    from migrate.index import build_index
    from migrate.materialize import materialize
    from migrate.rewrite.quiet_modules import InitOrder

    quiet = {
        "q1": '"""doc."""\nimport logging\nfrom typing import TypeVar\n\nT = TypeVar("T")\n'
        "log = logging.getLogger(__name__)\n__all__ = ['f']\n\n\ndef f(x=(1, 2)):\n"
        "    from pkg import n2\n    return n2\n",
        "q2": "from __future__ import annotations\nfrom typing import TYPE_CHECKING\n\n"
        "if TYPE_CHECKING:\n    from pkg.n2 import X\n\n\nclass C:\n    x: int = 0\n\n"
        "    def m(self) -> X: ...\n",
        "q3": "try:\n    import json\nexcept ImportError:\n    json = None\n",
        "q4": "from pkg.q1 import f\nfrom . import q2\n",  # imports of quiet modules
        "q5": "class E(Exception):\n    pass\n\n\nclass F(E):\n    pass\n\n\n"
        "if __name__ == '__main__':\n    print(F())\n",  # a base defined above; a script block
    }
    loud = {
        "n2": "import warnings\n\nwarnings.filterwarnings('ignore')\n",
        "n3": "import os\n\nos.environ['X'] = '1'\n",
        "n4": "def build():\n    return 1\n\n\nX = build()\n",
        "n5": "REG = {}\n\n\ndef register(f):\n    REG[f.__name__] = f\n    return f\n\n\n"
        "@register\ndef g():\n    pass\n",
        "n6": "from pkg.q1 import f\n\nY = f()\n",
        "n7": "from pkg.q2 import C\n\n\nclass D(C):\n    pass\n",
        "n8": "import os\n\nfrom pkg import n2\n\nos.environ['Y'] = '2'\n",  # imports first
        "n9": "import os\n\nos.environ['Y'] = '2'\nfrom pkg import n2\n",  # not so
    }
    files = {"pkg/__init__.py": "", "app.py": ""}
    files.update({f"pkg/{k}.py": v for k, v in {**quiet, **loud}.items()})
    index = build_index(make_repo(files))
    model = InitOrder(materialize(ChangeSet(), index))
    found = {m for m in [*quiet, *loud] if model._info(f"pkg.{m}")[0]}
    assert found == set(quiet)
    here = model.of_file("app.py")

    def stmts(*names):
        return [ast.parse(f"from pkg.{n} import x").body[0] for n in names]

    assert here.quiet(stmts("q4")[0]) and not here.quiet(stmts("n6")[0])
    assert here.same(stmts("q1", "n2", "q3"), stmts("n2", "q3", "q1"))
    assert not here.same(stmts("n2", "n3"), stmts("n3", "n2"))
    # n8 imports n2 before its own first loud statement: n2 runs first either way
    # (jinja2's filters.py: `._rt.runtime` imports `.async_utils`/`.utils` at its top)
    assert here.same(stmts("n2", "n8"), stmts("n8", "n2"))
    assert not here.same(stmts("n2", "n9"), stmts("n9", "n2"))
    assert not here.same(stmts("n3", "n8"), stmts("n8", "n3"))


def test_a_block_whose_sections_touch_is_not_sorted():
    """O3 (toolz's sandbox/parallel.py): `import functools` right above `from toolz...`
    with no blank line between the sections is not isort's layout (ruff I001 before), so
    the user did not sort the block: a respelled statement in it stays where the edit put
    it, no section line is added and nothing else moves. (Before: the block was sorted,
    a blank line added and the respelled import moved above its neighbour.) A block whose
    sections are a blank line apart is still sorted."""
    touching = "import os\nfrom yy.b import B\nfrom yy.c import C\n"
    assert _relaid(touching, "yy.c", "yy.a") == touching.replace("yy.c", "yy.a")
    apart = "import os\n\nfrom yy.b import B\nfrom yy.c import C\n"
    assert _relaid(apart, "yy.c", "yy.a") == "import os\n\nfrom yy.a import C\nfrom yy.b import B\n"


def test_a_statement_with_a_comment_above_is_sorted_with_its_comment():
    """O1, attrs' commented-import case (attrs 24.2.0's `_make.py`: a comment block above
    `from . import _compat, _config, setters`, split by the move of `_compat`, and
    `_pipes` added by a symbol move): a statement with comment lines right above it is
    sorted like any other and takes them along; ruff sets such a comment a blank line
    apart from the statement before it in its section; an added import merges into a
    statement with a comment above (the comment stays above), and one sorted right above
    a commented statement leaves the blank line before that comment. Each result is what
    ruff's own fix writes. (Before: every block with a comment above an edited statement
    was left as the edits had it: `from ._impl import compat as _compat` above
    `from . import _config, setters` and an unmerged `from . import _pipes`, ruff I001.)"""
    block = "import os\n\nfrom yy import other\n\n# why\nfrom yy.mod import a, b\n"
    block += "from yy.zed import Z\n"
    assert _relaid(
        block, "from yy.mod import a, b", "from yy.mod import a\nfrom yy.bnew import b"
    ) == (
        "import os\n\nfrom yy import other\nfrom yy.bnew import b\n\n# why\nfrom yy.mod import a\n"
        "from yy.zed import Z\n"
    )
    split = "import os\n\n# why mod itself\nfrom yy import mod, other\nfrom yy.mod import a\n"
    assert _relaid(
        split, "from yy import mod, other", "from yy.impl import mod\nfrom yy import other"
    ) == (
        "import os\n\nfrom yy import other\n\n# why mod itself\nfrom yy.impl import mod\n"
        "from yy.mod import a\n"
    )
    merged = "import os\n\n# c\nfrom yy import mod, other\nfrom yy.zed import Z\n"
    assert _scratch_add(merged, "from yy import mod, other", "from yy import bnew") == (
        "import os\n\n# c\nfrom yy import bnew, mod, other\nfrom yy.zed import Z\n"
    )
    above = "import os\n\n# why\nfrom yy.mod import a\n"
    assert _scratch_add(above, "from yy.mod import a", "from yy.bnew import b") == (
        "import os\n\nfrom yy.bnew import b\n\n# why\nfrom yy.mod import a\n"
    )
    # a comment right below the statement before it in its section (no blank line) is
    # not ruff's layout of a sorted block: the user did not sort it, nothing moves
    tight = "import os\n\nfrom yy import other\n# why\nfrom yy.mod import a, b\n"
    assert _relaid(
        tight, "from yy.mod import a, b", "from yy.mod import a\nfrom yy.bnew import b"
    ) == (tight.replace("a, b\n", "a\nfrom yy.bnew import b\n"))


def test_a_comment_line_between_entries_stays_with_the_entry_below_it(make_repo):
    """O4: in a parenthesized import a comment line between two entries is about the entry
    below it (ruff and isort keep it there when they sort): a split takes it along with
    that entry, into the new statement, and a part that ends in the middle of the old
    list closes without it. The other comments (a `# noqa` and a `# type: ignore` on their
    entries, the head comment repeated on each part, the closing paren's comment) stay
    where they were; the result is ruff clean, executed and run twice. (Before: the
    comment line stayed in `pkg.mod`'s part, above `c`.)"""
    from rewrite_helpers import changes, dedent, new_text

    files = {
        "pkg/__init__.py": "",
        "pkg/mod.py": "".join(f"def {n}():\n    return {n!r}\n\n\n" for n in "abcd"),
        "app.py": """\
            import os

            from pkg.mod import (  # head comment
                a,  # noqa: F401
                # a comment line between entries
                b,  # type: ignore[attr-defined]
                c,
                d,
            )  # closing comment


            def check():
                return os, a(), b(), c(), d()
            """,
    }
    expected = """\
        import os

        from pkg.mod import (  # head comment
            a,  # noqa: F401
            c,
        )
        from pkg.new import (  # head comment
            # a comment line between entries
            b,  # type: ignore[attr-defined]
            d,
        )  # closing comment


        def check():
            return os, a(), b(), c(), d()
        """
    moves = [("pkg.mod:b", "pkg.new"), ("pkg.mod:d", "pkg.new")]
    prep, cs = changes(make_repo, files, moves)
    assert new_text(prep, cs, "app.py") == dedent(expected)


def test_isort_skip_and_split_bound_the_runs_that_are_sorted():
    """O5: ruff sorts the imports around a statement marked `# isort: skip` (which keeps
    its place) and on each side of a `# isort: split` line, each run on its own. A
    respelled or split import in such a run goes to its sorted place there, the skipped
    statement and the split line stay; the skipped statement itself is never moved.
    (Before: any `isort:` pragma in the block left it as the edits had it: `from yy.bnew
    import b` below `yy.mod`, ruff I001 on a block that was clean.)"""
    skip = "import os\n\nfrom yy.mod import a, b\nfrom yy.other import X\n\n"
    skip += "from yy.zed import Z  # isort: skip\n"
    split = "from yy.mod import a\nfrom yy.bnew import b"
    assert _relaid(skip, "from yy.mod import a, b", split) == (
        "import os\n\nfrom yy.bnew import b\nfrom yy.mod import a\nfrom yy.other import X\n\n"
        "from yy.zed import Z  # isort: skip\n"
    )
    marked = "import os\n\nfrom yy.other import X\n\n# isort: split\nfrom yy.mod import a, b\n"
    marked += "from yy.zed import Z\n"
    assert _relaid(marked, "from yy.mod import a, b", split) == (
        "import os\n\nfrom yy.other import X\n\n# isort: split\nfrom yy.bnew import b\n"
        "from yy.mod import a\nfrom yy.zed import Z\n"
    )
    # the skipped statement respelled: it stays where it is
    kept = "import os\n\nfrom yy.mod import a  # isort: skip\nfrom yy.other import X\n"
    assert _relaid(kept, "yy.mod", "yy.zz") == kept.replace("yy.mod", "yy.zz")


def test_imports_between_isort_off_and_on_stay_and_the_runs_around_them_are_sorted():
    """O6: ruff leaves the statements between `# isort: off` and `# isort: on` as they
    are and sorts the runs before and after on their own: a respelled import after the
    `on` goes to its sorted place there; one inside the region stays where the edit put
    it. (Before: the whole block was left as the edits had it, `from yy._c import C` below
    `yy.a`, ruff I001 on a block that was clean.)"""
    text = "import os\n\nfrom yy.other import X\n\n# isort: off\nfrom yy.zed import Z\n"
    text += "from yy.mod import a, b\n# isort: on\nfrom yy.a import A\nfrom yy.c import C\n"
    assert _relaid(text, "from yy.c", "from yy._c") == text.replace(
        "from yy.a import A\nfrom yy.c import C\n", "from yy._c import C\nfrom yy.a import A\n"
    )
    split = "from yy.mod import a\nfrom yy.bnew import b"
    assert _relaid(text, "from yy.mod import a, b", split) == text.replace(
        "from yy.mod import a, b", split
    )


def test_a_statement_is_sorted_past_a_star_import_only_when_no_winner_changes(make_repo):
    """O2 (attrs' src/attrs/setters.py: `from attr.setters import *` and the explicit
    re-export `from attr._pipes import pipe as pipe` kept for the moved `pipe`, left below
    the star, ruff I001): a statement may be sorted past a star import when every name
    still binds to what it bound where the edits put it (what each star import gives is
    read from the tree after the plan, `star_exports.StarExports`); golden
    layout-sort-reexport-past-star. Control: sorted above `from pkg.other import *`,
    which gives a `pipe` of its own, the re-export would lose to it: it stays."""
    from rewrite_helpers import changes, new_text

    files = {
        "pkg/__init__.py": "",
        "pkg/setters.py": "def pipe(*fs):\n    return fs\n\n\ndef frozen():\n    return 1\n",
        "pkg/other.py": "def pipe():\n    return 'other'\n",
        "pkg/api.py": "from pkg.other import *  # noqa: F403\n"
        "from pkg.setters import *  # noqa: F403\n",
    }
    prep, cs = changes(make_repo, files, [("pkg.setters:pipe", "pkg.apipes")])
    assert new_text(prep, cs, "pkg/api.py") == files["pkg/api.py"] + (
        "from pkg.apipes import pipe as pipe\n"
    )


def test_an_added_name_merges_into_a_one_line_import_with_a_trailing_comment():
    """O7: ruff merges `from yy import bnew` into `from yy import mod, other  # noqa: F401`
    and keeps the comment at the end of the one line; the finaliser and the layout pass
    do the same (before: a second statement above it, ruff I001). When the merged line
    with its comment would pass the line length, the statements stay apart (ruff would
    wrap it and move the comment onto one name)."""
    from migrate.rewrite.import_order import ImportOrder
    from migrate.rewrite.isort_config import ImportStyle

    text = "import os\n\nfrom yy import mod, other  # noqa: F401\nfrom yy.zed import Z\n"
    assert _scratch_add(text, "from yy import mod, other", "from yy import bnew") == (
        "import os\n\nfrom yy import bnew, mod, other  # noqa: F401\nfrom yy.zed import Z\n"
    )
    assert _relaid(text, "from yy.zed import Z", "from yy import Z") == (
        "import os\n\nfrom yy import Z, mod, other  # noqa: F401\n"
    )
    short = ImportOrder(frozenset(), ImportStyle(line_length=44))
    assert _scratch_add(text, "from yy import mod, other", "from yy import bnew", order=short) == (
        text.replace("from yy import mod", "from yy import bnew\nfrom yy import mod")
    )


def test_an_added_name_goes_into_a_parenthesized_import_keeping_its_comments():
    """O8: ruff merges an added `from yy import bnew` into the parenthesized `from yy
    import (...)` of the same module, one name a line, and every comment stays on its
    name (a comment line above a name stays right above it): the new name's line goes
    at its sorted place, above the comment lines of the name after it. (Before: a second
    statement above it, ruff I001; re-rendering the statement would have lost the
    comments.) A closing paren's comment stays."""
    text = "import os\n\nfrom yy import (\n    mod,  # the module itself\n"
    text += "    # other is re-exported\n    other,\n)  # closing\nfrom yy.zed import Z\n"
    anchor = "from yy import ("
    assert _scratch_add(text, anchor, "from yy import bnew") == text.replace(
        "    mod,", "    bnew,\n    mod,"
    )
    assert _scratch_add(text, anchor, "from yy import n") == text.replace(
        "    # other", "    n,\n    # other"
    )
    assert _scratch_add(text, anchor, "from yy import z") == text.replace(
        "    other,\n", "    other,\n    z,\n"
    )
    two = "from yy import nn\nfrom yy import n"  # two names at one place: in their order
    assert _relaid(text, "from yy.zed import Z", two) == text.replace(
        "    # other", "    n,\n    nn,\n    # other"
    ).replace("from yy.zed import Z\n", "")
    assert _relaid(text, "from yy.zed import Z", "from yy import Z") == text.replace(
        "    mod,", "    Z,\n    mod,"
    ).replace("from yy.zed import Z\n", "")


HOLDERS = """import a
try:
    import b
    import c
except* E:
    import d
    import e
else:
    import f
finally:
    import g
match x:
    case 1:
        import h
    case _:
        import i
class K:
    import j
    def f(self, y=lambda: 0):
        import k
        if TYPE_CHECKING:
            import l
            import m
        while y:
            import n
        else:
            import o
async def g():
    async with x:
        import p
    async for q in x:
        import r
x = [i for i in range(3)]
"""


def test_blocks_walk_statements_only_in_ast_walk_order():
    """The layout pass finds its import blocks (and the `TYPE_CHECKING` bodies) walking
    only what can hold statements: the same blocks, in `ast.walk`'s order, as the walk
    of every node (which also visits every expression)."""
    import ast
    from pathlib import Path

    from migrate.rewrite import import_layout

    def walked_blocks(tree):  # the blocks as read from every node of `ast.walk`
        for node in ast.walk(tree):
            bodies = [getattr(node, f, None) for f in ("body", "orelse", "finalbody")]
            bodies += [h.body for h in getattr(node, "handlers", []) or []]
            for body in bodies:
                if not isinstance(body, list):
                    continue
                run = []
                for stmt in [*body, None]:
                    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                        if run and stmt.lineno == run[-1].end_lineno:
                            run = []
                            continue
                        run.append(stmt)
                        continue
                    if run:
                        yield run
                    run = []

    sources = [HOLDERS, *(p.read_text() for p in Path(import_layout.__file__).parent.glob("*.py"))]
    for source in sources:
        tree = ast.parse(source)
        ids = [[id(s) for s in b] for b in import_layout._blocks(tree)]
        assert ids == [[id(s) for s in b] for b in walked_blocks(tree)]
        holders = [n for n in ast.walk(tree) if isinstance(n, (ast.Module, *import_layout._HOLDS))]
        assert list(import_layout._holders(tree)) == holders
    tree = ast.parse(HOLDERS)
    assert [b[0].names[0].name for b in import_layout._blocks(tree)][:3] == ["a", "b", "f"]
    never = import_layout._never_run(tree)
    assert {n.names[0].name for n in ast.walk(tree) if id(n) in never} == {"l", "m"}


def test_a_lone_name_split_off_a_one_line_parenthesized_import_is_written_bare(make_repo, tmp_path):
    """T62 (wcwidth): `from .wc import (_bisearch, width)` on one line, `_bisearch` moved:
    each part held one name and kept the parentheses, `from .search import (_bisearch)`,
    a layout the file never had (ruff's formatter writes both parts bare). A lone name is
    written bare; a multi-line statement keeps its layout, one name per line, for a lone
    name too. Executed, run twice."""
    from rewrite_helpers import rewrite_and_run

    files = {
        "pkg/__init__.py": "from .wc import (_bisearch, width)  # the public names\n",
        "pkg/wc.py": "def width():\n    return 1\n\n\ndef _bisearch():\n    return 2\n",
        "use.py": "import pkg\n\n\ndef check():\n    assert pkg.width() + pkg._bisearch() == 3\n",
    }
    moves = [("pkg.wc:_bisearch", "pkg.search")]
    _, _, out = rewrite_and_run(make_repo, tmp_path, files, moves, "use")
    assert (out / "pkg/__init__.py").read_text() == (
        "from .search import _bisearch\nfrom .wc import width  # the public names\n"
    )
    files["pkg/__init__.py"] = "from .wc import (\n    width,\n    _bisearch,\n)\n"
    _, _, out = rewrite_and_run(make_repo, tmp_path / "multi", files, moves, "use")
    assert (out / "pkg/__init__.py").read_text() == (
        "from .search import (\n    _bisearch,\n)\nfrom .wc import (\n    width,\n)\n"
    )
