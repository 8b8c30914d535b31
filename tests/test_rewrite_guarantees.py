"""Engine guarantees: untouched files unparsed and identical, CRLF/encodings, parse errors,
idempotence, new packages, data that must move with its loader, deletes, the pool."""

import shutil

import pytest
from rewrite_helpers import apply_changeset, changes, new_text, plan_yaml

from migrate.errors import MigrateError
from migrate.index import build_index
from migrate.oldnames import OldNames
from migrate.plan import load_plan
from migrate.rewrite import engine, scan
from migrate.rewrite.cstfacts import PARSE_COUNT
from migrate.rewrite.fix_mode import fix_changes

BASE = {
    "pkg/__init__.py": "",
    "pkg/old/__init__.py": "",
    "pkg/old/norm.py": "from .util import helper\n\n\ndef rmsnorm(x):\n    return helper(x)\n",
    "pkg/old/util.py": "def helper(x):\n    return x\n",
    "pkg/new/__init__.py": "",
    "app/__init__.py": "",
    "app/use.py": "from pkg.old.norm import rmsnorm\n",
    "app/other.py": "import os\nfrom . import use\n",
    "README.md": "See `pkg.old.norm`.\n",
}
MOVE = [("pkg.old.norm", "pkg.new.layernorm")]


def test_untouched_files_are_never_parsed_by_libcst(make_repo):
    PARSE_COUNT.clear()
    files = dict(BASE)
    # Text hits that name nothing moving: `from parent import unmoved`, a parent prefix.
    files["app/parent.py"] = 'from pkg.old import util\nname = "pkg.old." + util.__name__\n'
    prep, cs = changes(make_repo, files, MOVE)
    assert "app/parent.py" in scan.candidates(prep.index, prep.relocation, prep.plan)
    assert set(PARSE_COUNT) == {"app/use.py", "pkg/old/norm.py"}
    assert {e.path for e in cs.edits} >= {"app/use.py", "pkg/new/layernorm.py"}
    assert not any(e.path in ("app/other.py", "pkg/old/util.py") for e in cs.edits)


def test_comment_above_code_libcst_is_not_given_is_rewritten_in_place(make_repo):
    """libcst gets only the hot top-level statements (sparse.py). A comment followed by
    cold code used to be positioned on the wrong line (libcst does not round-trip the
    whitespace lines that stood for the cold code): its edit landed one character off
    (`#pkg.new.layernormm`)."""
    files = dict(BASE)
    files["app/use.py"] = (
        "import os\n\nX = os.sep\n\n# pkg.old.norm does the work\ndef f():\n    return 2\n"
    )
    prep, cs = changes(make_repo, files, MOVE)
    assert new_text(prep, cs, "app/use.py") == (
        "import os\n\nX = os.sep\n\n# pkg.new.layernorm does the work\ndef f():\n    return 2\n"
    )


def test_a_comment_libcst_places_lines_off_is_rewritten_where_it_is(make_repo):
    """A comment ending a cold function's block, with more cold code after it, reaches
    libcst as a module-footer comment after whitespace lines; libcst places it lines off
    (seen in 13 files of SGLang 0.5.15). The edit must land on the comment itself."""
    files = dict(BASE)
    body = (
        "import os\n\nX = os.sep\n\n\ndef f():\n    y = 1\n    return y\n"
        "    # {} keeps the old layout\n\n\ndef g():\n    return 2\n"
    )
    files["app/use.py"] = body.format("pkg.old.norm")
    prep, cs = changes(make_repo, files, MOVE)
    assert new_text(prep, cs, "app/use.py") == body.format("pkg.new.layernorm")


def test_candidates_found_by_text_and_relative_scope(make_repo):
    prep, _ = changes(make_repo, dict(BASE), MOVE)
    found = scan.candidates(prep.index, prep.relocation, prep.plan)
    assert found == {"app/use.py", "pkg/old/norm.py", "README.md"}


def test_crlf_and_declared_encoding_preserved(make_repo):
    files = dict(BASE)
    files["app/use.py"] = (
        "# -*- coding: latin-1 -*-\r\n# caf\xe9 pkg.old.norm\r\nimport pkg.old.norm\r\n"
    ).encode("latin-1")
    files["app/bom.py"] = b"\xef\xbb\xbfimport pkg.old.norm\r\n"
    prep, cs = changes(make_repo, files, MOVE)
    root = prep.index.root
    apply_changeset(root, prep, cs)
    assert (root / "app/use.py").read_bytes() == (
        "# -*- coding: latin-1 -*-\r\n# caf\xe9 pkg.new.layernorm\r\nimport pkg.new.layernorm\r\n"
    ).encode("latin-1")
    assert (root / "app/bom.py").read_bytes() == b"\xef\xbb\xbfimport pkg.new.layernorm\r\n"


def test_unparsable_file_stops_the_run_with_path_and_message(make_repo):
    files = dict(BASE)
    files["app/broken.py"] = "import pkg.old.norm\ndef f(:\n"
    with pytest.raises(MigrateError) as exc:
        changes(make_repo, files, MOVE)
    (diag,) = exc.value.diagnostics
    assert diag.pos.file == "app/broken.py" and diag.pos.line == 2
    assert "libcst cannot parse" in diag.message


def test_skip_unparsable_lists_the_file_in_notes(make_repo):
    files = dict(BASE)
    files["app/broken.py"] = "import pkg.old.norm\ndef f(:\n"
    prep, cs = changes(make_repo, files, MOVE, skip_unparsable=True)
    assert any(n.pos.file == "app/broken.py" for n in cs.notes)
    assert not any(e.path == "app/broken.py" for e in cs.edits)
    assert new_text(prep, cs, "app/use.py") == "from pkg.new.layernorm import rmsnorm\n"


def test_idempotent_fix_on_own_output_changes_nothing(make_repo, tmp_path):
    prep, cs = changes(make_repo, dict(BASE), MOVE)
    out = tmp_path / "out"
    shutil.copytree(prep.index.root, out, ignore=shutil.ignore_patterns(".git"))
    apply_changeset(out, prep, cs)
    index = build_index(out, prep.plan.roots)
    again = fix_changes(prep.plan, index)
    assert again.edits == [] and again.notes == []


def test_fix_rewrites_a_stale_branch_in_place(make_repo, tmp_path):
    prep, cs = changes(make_repo, dict(BASE), MOVE)
    out = tmp_path / "out"
    shutil.copytree(prep.index.root, out, ignore=shutil.ignore_patterns(".git"))
    apply_changeset(out, prep, cs)
    (out / "app/late.py").write_text("import pkg.old.norm\npkg.old.norm.rmsnorm(1)\n")
    plan = tmp_path / "plan.yaml"
    plan.write_text(plan_yaml(MOVE))
    from click.testing import CliRunner

    from migrate.commands.fix import command

    result = CliRunner().invoke(command, [str(plan), "--repo", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "app/late.py").read_text() == (
        "import pkg.new.layernorm\npkg.new.layernorm.rmsnorm(1)\n"
    )
    loaded, _ = load_plan(plan)
    assert fix_changes(loaded, build_index(out)).edits == []


def test_move_into_new_directory_creates_init(make_repo):
    prep, cs = changes(make_repo, dict(BASE), [("pkg.old.norm", "pkg.new.fresh.norm")])
    assert cs.writes["pkg/new/fresh/__init__.py"] == ("code", "")
    assert any("pkg/new/fresh/__init__.py" in str(n.pos) for n in cs.notes)


def test_loader_moved_without_its_configs_is_refused(make_repo):
    files = dict(BASE)
    files["pkg/old/gemm.py"] = (
        "import os\nCONFIGS = os.path.join(os.path.dirname(__file__), 'configs')\n"
    )
    files["pkg/old/configs/a.json"] = "{}"
    with pytest.raises(MigrateError) as exc:
        changes(make_repo, files, [("pkg.old.gemm", "pkg.new.gemm")])
    msg = exc.value.diagnostics[0].message
    assert "pkg/old/configs" in msg and "pkg/new/configs" in msg


def test_loader_moved_with_its_configs_is_fine(make_repo):
    files = dict(BASE)
    files["pkg/old/gemm.py"] = (
        "import os\nCONFIGS = os.path.join(os.path.dirname(__file__), 'configs')\n"
    )
    files["pkg/old/configs/a.json"] = "{}"
    prep, cs = changes(
        make_repo, files, [("pkg.old.gemm", "pkg.new.gemm"), ("pkg/old/configs", "pkg/new/configs")]
    )
    assert ("pkg/old/configs/a.json", "pkg/new/configs/a.json") in {
        (m.old, m.new) for m in cs.moves
    }


def test_deleted_package_leftovers_are_removed(make_repo):
    prep, cs = changes(
        make_repo,
        dict(BASE),
        [("pkg.old.norm", "pkg.new.norm"), ("pkg.old.util", "pkg.new.util")],
        "delete: [pkg.old]\n",
    )
    assert cs.removals == {"pkg/old/__init__.py": "delete"}


def test_process_pool_gives_the_same_edits(make_repo, monkeypatch):
    files = dict(BASE)
    for i in range(12):
        files[f"app/m{i}.py"] = f"import pkg.old.norm\nx{i} = pkg.old.norm.rmsnorm\n"
    prep, serial = changes(make_repo, files, MOVE)
    monkeypatch.setattr(engine, "POOL_MIN_FILES", 2)
    parallel = engine.plan_changes(prep)
    assert parallel.edits == serial.edits


def test_prefilter_is_a_superset_and_bare_parents_are_not_candidates(make_repo):
    files = dict(BASE)
    files["app/parent.py"] = "import pkg.old.util\nfrom pkg.old import util\n"
    files["app/child.py"] = "from pkg.old import (\n    norm,\n)\n"
    files["app/computed.py"] = 'name = f"pkg.old.{x}"\nother = "pkg.old." + x\n'
    prep, _ = changes(make_repo, files, MOVE)
    names = OldNames(prep.relocation, prep.plan)
    regex, quick = names.regex, names.prefilter
    for path in prep.index.files:
        text = prep.index.text(path) or ""
        assert not regex.search(text) or quick.search(text), path
    found = scan.candidates(prep.index, prep.relocation, prep.plan)
    assert {"app/child.py", "app/computed.py", "app/parent.py"} <= found  # `from pkg.old import`
    assert "pkg/old/util.py" not in found


GATHERED = '''"""Doc naming pkg.old.norm."""
import os  # a comment
from pkg.old.norm import rmsnorm

TABLE = [("pkg.old.norm", f"{os.sep}x"), "pkg" ".old"]


class K:
    @staticmethod
    def f(a: "pkg.old.norm.T" = rmsnorm) -> None:
        return pkg.old.norm.rmsnorm(a)  # pkg.old.norm
'''


def test_gather_traverses_the_tree_for_positions_and_facts_only(monkeypatch):
    """libcst's resolver runs a batched visit of the whole tree for the batchable
    providers of each round, even when there are none (`PositionProvider` is not one):
    gather resolves positions without it, to the same facts."""
    import libcst.metadata.wrapper as wrapper

    from migrate.rewrite import cstfacts

    batched = []
    real = wrapper._gen_batchable
    monkeypatch.setattr(wrapper, "_gen_batchable", lambda w, ps: batched.append(ps) or real(w, ps))
    _, facts = cstfacts.gather("m.py", GATHERED)
    assert batched == []
    monkeypatch.setattr(cstfacts, "_resolve_positions", lambda w: None)  # libcst's own way
    _, expected = cstfacts.gather("m.py", GATHERED)
    assert batched == [[]]  # the empty batch it visits the tree for
    assert sorted(facts.spans.values()) == sorted(expected.spans.values())
    assert facts.comments == expected.comments and facts.chains == expected.chains


def test_layout_pass_parses_each_file_once(make_repo, monkeypatch):
    """The layout pass reads a file's `ast` for its import blocks and for the blank lines
    before definitions: one parse serves both."""
    import ast
    import sys

    files = dict(BASE)
    files["app/use.py"] = "import os\nfrom pkg.old.norm import rmsnorm\n\n\ndef f():\n    pass\n"
    parses = []
    real = ast.parse

    def counted(source, *a, **k):
        frame = sys._getframe(1)
        while frame is not None and frame.f_code.co_name != "_layout_pass":
            frame = frame.f_back
        if frame is not None and isinstance(source, str):
            parses.append(source)
        return real(source, *a, **k)

    monkeypatch.setattr(ast, "parse", counted)
    prep, cs = changes(make_repo, files, MOVE)
    use = prep.index.text("app/use.py")
    assert any(e.path == "app/use.py" for e in cs.edits)
    assert parses.count(use) == 1  # its old text; the second (fix) run reads the new one
