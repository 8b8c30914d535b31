"""Golden inventory: golden/inventory/tree/ -> expected.txt (table) and expected.json.

Regenerate with `MIGRATE_UPDATE_GOLDENS=1 pytest tests/test_inventory_golden.py`.
"""

from __future__ import annotations

import json

from helpers import GOLDEN, assert_golden

from migrate.tests_split.inventory import inventory_of_texts
from migrate.tests_split.render import inventory_text

HERE = GOLDEN / "inventory"
# The registered test file of the tree is the split golden's source, shared, not copied.
MIXED = ("test/registered/kernels/test_mixed.py", GOLDEN / "split" / "mixed_groups" / "source.py")


def test_inventory_matches_golden():
    tree = HERE / "tree"
    texts = {p.relative_to(tree).as_posix(): p.read_text() for p in tree.rglob("*.py")}
    texts[MIXED[0]] = MIXED[1].read_text()
    inv = inventory_of_texts(texts)
    got = {
        "expected.txt": inventory_text(inv),
        "expected.json": json.dumps(inv.to_json(), indent=2) + "\n",
    }
    for name, text in got.items():
        assert_golden(HERE / name, text)
