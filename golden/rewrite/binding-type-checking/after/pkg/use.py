from __future__ import annotations

import inspect
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pkg import newmod


def f(x: newmod.Cls) -> newmod.Cls:
    return x


def check():
    # Run the (rewritten) TYPE_CHECKING block, then resolve the annotations.
    src = inspect.getsource(sys.modules[__name__])
    block = []
    for line in src.split("if TYPE_CHECKING:")[1].splitlines()[1:]:
        if not line.startswith("    "):
            break
        block.append(line.strip())
    ns = {}
    exec(chr(10).join(block), ns)
    assert eval(f.__annotations__["x"], ns).kind == "cls"
    assert eval(f.__annotations__["return"], ns) is eval(f.__annotations__["x"], ns)
