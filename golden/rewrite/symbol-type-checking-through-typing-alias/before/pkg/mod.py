import typing as t

if t.TYPE_CHECKING:
    from collections import OrderedDict


def make(x: "OrderedDict") -> t.Any:
    return x


def other() -> t.Any:
    return 1
