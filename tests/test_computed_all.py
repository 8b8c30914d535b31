"""A package `__all__` computed from a losing module's `__all__` (trial23 T28):
`__all__ = [...] + ops.__all__` with `from .ops import *`. A moved name the star import
gave is re-imported beside the star (`star re-exports`) and leaves `ops.__all__`; the
package's computed `__all__` gets it back (`+ ["relu"]`) so `from pkg import *` still
exports it. Executed (`from pkg import *` in the checking module) and run twice.
"""

from __future__ import annotations

import pytest
from rewrite_helpers import rewrite_and_run

OPS = """
__all__ = ["relu", "gelu"]


def relu(x):
    return max(x, 0)


def gelu(x):
    return x
"""
CHECK = """
import pkg


def check():
    names = {}
    exec("from pkg import *", names)
    assert names["relu"](-1) == 0 and names["gelu"](2) == 2
    assert sorted(pkg.__all__) == ["gelu", "ops", "relu"], pkg.__all__
"""


@pytest.mark.parametrize(
    ("computed", "expected"),
    [
        ('__all__ = ["ops"] + ops.__all__', '__all__ = ["ops"] + ops.__all__ + ["relu"]'),
        ("__all__ = ['ops', *ops.__all__]", "__all__ = ['ops', *ops.__all__ + ['relu']]"),
        (
            '__all__ = ["ops"]\n__all__ += ops.__all__',
            '__all__ = ["ops"]\n__all__ += ops.__all__ + ["relu"]',
        ),
        (
            '__all__ = ["ops"]\n__all__.extend(ops.__all__)',
            '__all__ = ["ops"]\n__all__.extend(ops.__all__ + ["relu"])',
        ),
    ],
    ids=["sum", "unpacked", "augmented", "extend"],
)
def test_a_computed_all_keeps_the_moved_names_the_star_gave(
    make_repo, tmp_path, computed, expected
):
    files = {
        "pkg/__init__.py": f"from . import ops\nfrom .ops import *\n\n{computed}\n",
        "pkg/ops.py": OPS,
        "app/__init__.py": "",
        "app/check.py": CHECK,
    }
    prep, cs, out = rewrite_and_run(
        make_repo, tmp_path, files, [("pkg.ops:relu", "pkg.activations")], "app.check"
    )
    init = (out / "pkg/__init__.py").read_text()
    # at isort's place, above the star: the star no longer gives relu (o12, O2)
    assert "from . import ops\nfrom .activations import relu\nfrom .ops import *\n" in init
    assert init.endswith(f"\n{expected}\n"), init


def test_an_all_that_reads_another_modules_all_elsewhere_is_left_alone(make_repo, tmp_path):
    """Only the module's own `__all__` is an export list: a read of `ops.__all__` in any
    other statement (a test comparing it) keeps its value, which lost `relu`."""
    files = {
        "pkg/__init__.py": "from . import ops\nfrom .ops import *\n\nSEEN = list(ops.__all__)\n",
        "pkg/ops.py": OPS,
        "app/__init__.py": "",
        "app/check.py": "import pkg\n\n\ndef check():\n    assert pkg.SEEN == ['gelu']\n",
    }
    prep, cs, out = rewrite_and_run(
        make_repo, tmp_path, files, [("pkg.ops:relu", "pkg.activations")], "app.check"
    )
    assert "SEEN = list(ops.__all__)\n" in (out / "pkg/__init__.py").read_text()
