"""Import layout on real projects (bench/import_layout_real.py): after `migrate apply` of
each plan in tests/fixtures/real/, no import block of an edited file that ruff (with the
project's own isort settings) found sorted is unsorted, none that it found unsorted is
sorted, and no comment of an import is lost or moved to other names.

attrs 24.2.0 has the comment block above `from . import _compat, _config, setters`
(O1) and the star re-export of `attrs/setters.py` (O2). jinja2 3.1.4 keeps two unsorted
blocks on purpose: `__init__.py` and `environment.py` import the loud `._rt.runtime`,
which sorts first but would then run before `.environment`/`.compiler` (the layout pass's
init-order rule, quiet_modules.py); everything else there is sorted.
"""

from __future__ import annotations

import sys

import pytest
from helpers import REPO_ROOT
from realtrees import Unavailable

pytestmark = pytest.mark.slow

sys.path.insert(0, str(REPO_ROOT / "bench"))

from import_layout_real import check  # noqa: E402

# project -> (I001 blocks in the edited files before, after, the defects left on purpose)
EXPECT = {
    "attrs": (0, 0, []),
    "jinja2": (
        1,
        3,
        [
            "src/jinja2/__init__.py: I001 new (0 -> 1 unsorted blocks at [(6, 36)])",
            "src/jinja2/environment.py: I001 new (0 -> 1 unsorted blocks at [(5, 55)])",
        ],
    ),
}


@pytest.mark.parametrize("name", sorted(EXPECT))
def test_edited_imports_keep_their_order_and_comments(name):
    try:
        got = check(name, None)
    except Unavailable as exc:  # no registry access
        pytest.skip(str(exc))
    assert "error" not in got, got.get("error")
    assert (got["before"], got["after"], got["defects"]) == EXPECT[name]
