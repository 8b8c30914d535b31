from typing import Annotated as A
from typing import Literal

from pkg.checks import Check, Color


def f(x: A[int, Check] = 0, y: Literal[Color.RED, "pkg.mod"] = 1) -> "A[int, Check]":
    return x + y


def g():
    return Check, Color
