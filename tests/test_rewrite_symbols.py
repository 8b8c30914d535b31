"""Symbol moves: the definition moves with its imports and private helpers; references follow."""

import pytest
from rewrite_helpers import changes, dedent, new_text

from migrate.errors import MigrateError

SRC = """
import math

from .util import cached, helper

SCALE = 2


# The fast path.
@cached
def rmsnorm(x):
    return _impl(x) * SCALE


def _impl(x):
    return helper(math.sqrt(x))


def layer(x):
    return rmsnorm(x)
"""
BASE = {
    "pkg/__init__.py": "",
    "pkg/old/__init__.py": "",
    "pkg/old/norm.py": SRC,
    "pkg/old/util.py": "def helper(x):\n    return x\ncached = lambda f: f\n",
    "pkg/new/__init__.py": "",
    "pkg/new/ln.py": '"""Layernorm."""\nimport os\n\nEPS = 1e-6\n',
    "app/use.py": (
        "import pkg.old.norm\nfrom pkg.old.norm import rmsnorm, layer\n"
        'pkg.old.norm.rmsnorm(1)\npatch("pkg.old.norm.rmsnorm")\n'
    ),
}


def test_symbol_moves_into_new_module_with_helper_and_imports(make_repo):
    src = SRC.replace("@cached\n", "").replace(" * SCALE", "")
    files = dict(BASE, **{"pkg/old/norm.py": src})
    prep, cs = changes(make_repo, files, [("pkg.old.norm:rmsnorm", "pkg.new.fused")])
    assert cs.writes["pkg/new/fused.py"] == (
        "code",
        dedent(
            """
            import math

            from pkg.old.util import helper


            # The fast path.
            def rmsnorm(x):
                return _impl(x)


            def _impl(x):
                return helper(math.sqrt(x))
            """
        ),
    )
    # math and helper were only used by the moved code: they leave with it.
    assert new_text(prep, cs, "pkg/old/norm.py") == dedent(
        """
        from pkg.new.fused import rmsnorm

        from .util import cached

        SCALE = 2


        def layer(x):
            return rmsnorm(x)
        """
    )


def test_public_names_the_symbol_uses_are_imported_from_the_old_module(make_repo):
    src = SRC.replace("@cached\n", "").split("\n\ndef layer")[0] + "\n"
    files = dict(BASE, **{"pkg/old/norm.py": src})
    prep, cs = changes(make_repo, files, [("pkg.old.norm:rmsnorm", "pkg.new.fused")])
    assert "from pkg.old.norm import SCALE\n" in cs.writes["pkg/new/fused.py"][1]
    assert "import" not in new_text(prep, cs, "pkg/old/norm.py").split("SCALE = 2")[1]


def test_symbol_move_into_existing_module_and_references(make_repo):
    files = dict(
        BASE, **{"pkg/old/norm.py": SRC.replace(" * SCALE", "").replace("SCALE = 2\n", "")}
    )
    prep, cs = changes(make_repo, files, [("pkg.old.norm:rmsnorm", "pkg.new.ln")])
    ln = new_text(prep, cs, "pkg/new/ln.py")
    assert ln.startswith(
        '"""Layernorm."""\nimport math\nimport os\n\nfrom pkg.old.util import cached, helper\n'
    )
    assert ln.endswith(
        "EPS = 1e-6\n\n\n# The fast path.\n@cached\ndef rmsnorm(x):\n"
        "    return _impl(x)\n\n\ndef _impl(x):\n"
        "    return helper(math.sqrt(x))\n"
    )
    use = new_text(prep, cs, "app/use.py")
    # the added import of own code goes right after its binding: sorting it above
    # `pkg.old.norm` would run the two modules in another order (import_layout._place)
    assert use == (
        "import pkg.old.norm\nimport pkg.new.ln\n"
        "from pkg.new.ln import rmsnorm\nfrom pkg.old.norm import layer\n"
        'pkg.new.ln.rmsnorm(1)\npatch("pkg.new.ln.rmsnorm")\n'
    )
    patch_edit = next(e for e in cs.edits if e.path == "app/use.py" and e.kind == "string")
    assert patch_edit.applicability == "review" and "layer" in patch_edit.reason


def test_private_helper_shared_with_staying_code_is_refused(make_repo):
    src = SRC + "\n\ndef other(x):\n    return _impl(x)\n"
    files = dict(BASE, **{"pkg/old/norm.py": src})
    with pytest.raises(MigrateError) as exc:
        changes(make_repo, files, [("pkg.old.norm:rmsnorm", "pkg.new.fused")])
    assert "private helper _impl" in str(exc.value) and "other" in str(exc.value)


def test_import_cycle_is_refused(make_repo):
    # rmsnorm needs the public SCALE from norm; norm's `layer` needs rmsnorm back.
    with pytest.raises(MigrateError) as exc:
        changes(make_repo, dict(BASE), [("pkg.old.norm:rmsnorm", "pkg.new.fused")])
    assert "import cycle" in str(exc.value)


def test_patch_object_of_a_moved_symbol_follows_it_for_review(make_repo):
    src = SRC.replace("@cached\n", "").replace(" * SCALE", "")
    files = dict(BASE, **{"pkg/old/norm.py": src})
    files["app/t.py"] = (
        "import pkg.old.norm as nm\nfrom unittest import mock\n\n"
        'mock.patch.object(nm, "rmsnorm")\nmonkeypatch.setattr(nm, "layer", None)\n'
    )
    prep, cs = changes(make_repo, files, [("pkg.old.norm:rmsnorm", "pkg.new.fused")])
    # The patch follows the symbol by binding; `layer`, left in norm, still calls it
    # through norm's globals, so the edit is for review and says so.
    # (the block is not in isort order, stdlib after first party: the simple rule, the
    # added import right after the binding)
    assert new_text(prep, cs, "app/t.py") == (
        "import pkg.old.norm as nm\nimport pkg.new.fused as fused\nfrom unittest import mock\n\n"
        'mock.patch.object(fused, "rmsnorm")\nmonkeypatch.setattr(nm, "layer", None)\n'
    )
    (edit,) = [e for e in cs.edits if e.path == "app/t.py" and e.new == "fused"]
    assert edit.applicability == "review" and "layer" in edit.reason


def test_parent_relative_import_of_a_moved_symbol_in_a_subpackage(make_repo):
    """`from ..util import helper` two levels down reaches the symbol's old module too."""
    files = dict(
        BASE,
        **{
            "pkg/old/sub/__init__.py": "",
            "pkg/old/sub/router.py": "from ..util import helper\n\nvalue = helper(3)\n",
            "pkg/old/sub/other.py": "from . import router\nfrom ..norm import layer\n",
        },
    )
    prep, cs = changes(make_repo, files, [("pkg.old.util:helper", "pkg.new.helpers")])
    assert new_text(prep, cs, "pkg/old/sub/router.py") == (
        "from pkg.new.helpers import helper\n\nvalue = helper(3)\n"
    )
    # A relative import that does not reach the moved symbol is never touched.
    assert cs.edits_for("pkg/old/sub/other.py") == []
