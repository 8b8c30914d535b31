from .a import A
from .b import B
from .c import C


def trio():
    return A, B, C
