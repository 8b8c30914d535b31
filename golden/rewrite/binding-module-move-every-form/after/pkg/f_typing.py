from __future__ import annotations

import inspect
import sys
import typing
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pkg.sub import newmod as mod


def make(x: mod.Cls) -> mod.Cls:
    return x


def run():
    # run the (rewritten) TYPE_CHECKING block, then resolve the annotations with it
    src = inspect.getsource(sys.modules[__name__]).split("if TYPE_CHECKING:")[1]
    block = [ln.strip() for ln in src.splitlines()[1:3] if ln.startswith("    ")]
    ns = {}
    exec("\n".join(block), ns)
    hints = typing.get_type_hints(make, ns)
    assert hints["x"].kind == "cls" and hints["return"] is hints["x"], hints
    return "func-typing"
