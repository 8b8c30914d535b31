import typing as t
from enum import Enum

from .core import P, base


class OpAssoc(Enum):
    L = 1


def make() -> t.Any:
    return P(), base(), OpAssoc.L
