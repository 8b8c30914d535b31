from pkg.helpers import other
from pkg.infix import OpAssoc, make


def check():
    p, zero, left = make()
    assert (zero, left, other()) == (0, OpAssoc.L, 0) and p is not None
