from .a import A
from .c import C
from .z import B


def trio():
    return A, B, C
