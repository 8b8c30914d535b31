import pkg
import pkg.api
import top
from pkg import countby, grow, partitionby
from pkg.api import *


def check():
    assert partitionby("abc") == ["a", "bc"] and countby("ab") == 2 and grow(1) == 2
    assert pkg.partitionby("xy") == ["x", "y"] and pkg.grow(2) == 3 and pkg.shrink(2) == 1
    assert not hasattr(pkg, "hidden")
    assert pkg.api.partitionby("ab") == ["a", "b"] and sorted(pkg.api.__all__) == [
        "countby",
        "partitionby",
    ]
    assert top.partitionby("ab") == ["a", "b"] and top.grow(0) == 1 and top.mid.countby("") == 0
