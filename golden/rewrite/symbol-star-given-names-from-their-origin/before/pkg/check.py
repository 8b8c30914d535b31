from pkg.helpers import OpAssoc, make, other


def check():
    p, zero, left = make()
    assert (zero, left, other()) == (0, OpAssoc.L, 0) and p is not None
