from .core import *


class OpAssoc(Enum):
    L = 1


def make() -> t.Any:
    return P(), base(), OpAssoc.L


def other():
    return base()
