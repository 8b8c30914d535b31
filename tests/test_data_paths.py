"""The data-path check reads the loader's path expression, not every string literal."""

from __future__ import annotations

import pytest
from prep_helpers import BASE_TREE, prepared

from migrate.errors import MigrateError
from migrate.rewrite.data_paths import data_path_problems

K3 = "python/sglang/kernels/ops/kimi_k3"
LOADER = """\
import json
import os

_CONFIG_DIR = os.path.join(os.path.dirname(__file__), "configs", "sp_collective")


def load(name):
    with open(os.path.join(_CONFIG_DIR, name)) as f:
        table = json.load(f)
    return table["configs"]
"""
TREE = {
    **BASE_TREE,
    "python/sglang/kernels/ops/__init__.py": '_GROUPS = ("communication", "kimi_k3")\n',
    "python/sglang/kernels/ops/communication/__init__.py": "",
    f"{K3}/__init__.py": "",
    f"{K3}/sp_collective.py": LOADER,
    f"{K3}/configs/sp_collective/world=4.json": "{}\n",
    f"{K3}/configs/other/x.json": "{}\n",
}
MOVE = """\
version: 1
roots: [python, .]
moves:
  - from: sglang.kernels.ops.kimi_k3.sp_collective
    to: sglang.kernels.ops.communication.sp_collective
"""
NESTED = "  - from: {src}\n    to: {dst}\n"


def _problems(make_repo, tmp_path, extra=""):
    prep = prepared(make_repo, tmp_path, {}, plan=MOVE + extra, base=TREE)
    return data_path_problems(prep.index, prep.relocation)


def test_loader_moved_without_its_configs_is_refused(make_repo, tmp_path):
    (d,) = _problems(make_repo, tmp_path)
    assert (d.pos.file, d.pos.line) == (f"{K3}/sp_collective.py", 4)
    assert f"add a move `{K3}/configs/sp_collective -> " in d.message
    assert "python/sglang/kernels/ops/communication/configs/sp_collective`" in d.message


def test_nested_config_dir_moving_where_the_lookup_resolves_is_fine(make_repo, tmp_path):
    """`table["configs"]` is a dict key, not a path: kimi_k3/configs/other stays put."""
    extra = NESTED.format(
        src=f"{K3}/configs/sp_collective/",
        dst="python/sglang/kernels/ops/communication/configs/sp_collective/",
    )
    assert _problems(make_repo, tmp_path, extra) == []


def test_nested_config_dir_moving_elsewhere_is_refused(make_repo, tmp_path):
    extra = NESTED.format(
        src=f"{K3}/configs/sp_collective/",
        dst="python/sglang/kernels/ops/communication/sp_configs/",
    )
    (d,) = _problems(make_repo, tmp_path, extra)
    assert "moves to python/sglang/kernels/ops/communication/sp_configs" in d.message


@pytest.mark.parametrize(
    "expr",
    [
        'Path(__file__).resolve().parent / "configs" / "sp_collective"',
        'os.path.join(os.path.dirname(os.path.realpath(__file__)), "configs/sp_collective")',
        # the sibling of the module's own file (trial23 T25: the module moved, its data
        # stayed, FileNotFoundError at import, apply exit 0)
        'Path(__file__).with_name("configs") / "sp_collective"',
        'Path(__file__).resolve().with_name("configs")',
        'Path(__file__).parent.joinpath("configs", "sp_collective")',
        # package resources of the module's own package
        'importlib.resources.files(__package__) / "configs" / "sp_collective"',
        'files(__name__).joinpath("configs")',
        'pkgutil.get_data(__package__, "configs/sp_collective/world=4.json")',
        'importlib.resources.read_text(__package__, "configs/sp_collective/world=4.json")',
    ],
)
def test_other_spellings_of_the_lookup(make_repo, tmp_path, expr):
    loader = f"import os\nfrom pathlib import Path\n\nCONFIGS = {expr}\n"
    files = {f"{K3}/sp_collective.py": loader}
    prep = prepared(make_repo, tmp_path, files, plan=MOVE, base=TREE)
    (d,) = data_path_problems(prep.index, prep.relocation)
    assert d.pos.line == 4


def test_the_engine_refuses_the_plan(make_repo, tmp_path):
    from migrate.rewrite.engine import plan_changes

    prep = prepared(make_repo, tmp_path, {}, plan=MOVE, base=TREE)
    with pytest.raises(MigrateError):
        plan_changes(prep)


def test_a_project_root_above_the_loader_is_not_data(make_repo, tmp_path):
    """`join(dirname(__file__), "../..")` names a directory holding the loader itself (a
    project root, as SGLang's multimodal CLI computes): files moving below it are not data
    the loader lost (this refused the real SGLang 0.5.15 plan)."""
    root = 'ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "../../.."))\n'
    tree = {**TREE, "python/sglang/srt/cli/utils.py": "import os\n" + root}
    prep = prepared(make_repo, tmp_path, {}, plan=MOVE, base=tree)
    assert not [p for p in data_path_problems(prep.index, prep.relocation) if "cli" in str(p)]


def _stationary(make_repo, tmp_path, target):
    """A script that stays and lists `{K3}` by path from the repository root."""
    script = (
        "from pathlib import Path\n\n"
        "base = Path(__file__).resolve().parent.parent\n"
        f'MODS = sorted(base.joinpath({target}).rglob("*.py"))\n'
    )
    move = MOVE.replace(
        "sglang.kernels.ops.kimi_k3.sp_collective", "sglang.kernels.ops.kimi_k3", 1
    ).replace("communication.sp_collective", "communication.kimi_k3")
    tree = {**TREE, "scripts/gen.py": script}
    prep = prepared(make_repo, tmp_path, {}, plan=move, base=tree)
    return data_path_problems(prep.index, prep.relocation)


def test_a_stationary_script_listing_a_moved_package_is_a_warning(make_repo, tmp_path):
    """trial24 T41 (markdown's docs generator lists `markdown/extensions/*.py`): the
    package moves as code, the script stays; no plan-level move can mend it, so the
    dry run warns with the new place instead of refusing with a move onto itself."""
    parts = ", ".join(f'"{p}"' for p in K3.split("/"))
    (d,) = _stationary(make_repo, tmp_path, parts)
    assert d.severity == "warning"
    assert (d.pos.file, d.pos.line) == ("scripts/gen.py", 4)
    assert "relative to the repository root" in d.message
    assert "python/sglang/kernels/ops/communication/kimi_k3" in d.message
    assert f"`{K3} -> {K3}`" not in d.message


def test_a_stationary_loader_whose_data_moves_stays_refused(make_repo, tmp_path):
    parts = ", ".join(f'"{p}"' for p in (K3 + "/configs/sp_collective").split("/"))
    (d,) = _stationary(make_repo, tmp_path, parts)
    assert d.severity == "error"
    assert "scripts/gen.py stays" in d.message and "relative to the repository root" in d.message
    assert "add a move" not in d.message  # no move of a path onto itself


def _respelled(make_repo, tmp_path, target, expr="base.joinpath({})"):
    """The dry run's edits of scripts/gen.py and its notes on it."""
    from migrate.rewrite.engine import plan_changes

    script = (
        "from pathlib import Path\n\n"
        "base = Path(__file__).resolve().parent.parent\n"
        f'MODS = sorted(({expr.format(target)}).rglob("*.py"))\n'
    )
    move = MOVE.replace(
        "sglang.kernels.ops.kimi_k3.sp_collective", "sglang.kernels.ops.kimi_k3", 1
    ).replace("communication.sp_collective", "communication.kimi_k3")
    tree = {**TREE, "scripts/gen.py": script}
    prep = prepared(make_repo, tmp_path, {}, plan=move, base=tree)
    cs = plan_changes(prep)
    edits = [e for e in cs.edits if e.path == "scripts/gen.py"]
    notes = [n for n in cs.notes if n.pos.file == "scripts/gen.py"]
    return script, edits, notes


@pytest.mark.parametrize("quote", ['"', "'"])
def test_literal_parts_naming_moved_code_are_respelled(make_repo, tmp_path, quote):
    """trial24 T42: the parts of `base.joinpath("python", ..., "kimi_k3")` from an anchor
    that stays follow the package like a string path does; no warning is left."""
    parts = ", ".join(f"{quote}{p}{quote}" for p in K3.split("/"))
    script, edits, notes = _respelled(make_repo, tmp_path, parts)
    (e,) = edits
    new = script[: e.start] + e.new + script[e.end :]
    target = "python/sglang/kernels/ops/communication/kimi_k3"
    want = ", ".join(f"{quote}{p}{quote}" for p in target.split("/"))
    assert f"base.joinpath({want})" in new
    assert notes == []


def test_a_lookup_the_string_pass_respells_has_no_warning(make_repo, tmp_path):
    """`base / "python/.../kimi_k3"` is a string path the string pass respells: that one
    edit stands, and the warning that the lookup finds nothing is withdrawn."""
    script, (e,), notes = _respelled(make_repo, tmp_path, f'"{K3}"', "base / {}")
    assert e.new == "python/sglang/kernels/ops/communication/kimi_k3" and notes == []


def test_own_package_prefilter_finds_what_the_regex_finds():
    """`_names_own_package` (a reader's `name(` first, then `_OWN_PACKAGE`) says what
    `_OWN_PACKAGE.search` says."""
    from pathlib import Path

    import migrate
    from migrate.rewrite.data_paths import _OWN_PACKAGE, _names_own_package

    texts = [
        "files(__package__)",
        "resources.read_text( __name__, 'x')",
        "get_data(__package__x)",
        "myfiles(__package__)",
        "files (__package__)",
        "path(__name__)",
    ]
    texts += [p.read_text() for p in Path(migrate.__file__).parent.rglob("*.py")]
    found = [_names_own_package(t) for t in texts]
    assert found == [_OWN_PACKAGE.search(t) is not None for t in texts]
    assert found[:6] == [True, True, False, False, False, True]
