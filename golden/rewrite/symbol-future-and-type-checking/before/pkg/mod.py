"""Doc."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections import OrderedDict


def make(x: OrderedDict) -> OrderedDict:
    return x


def other():
    return 1
