from .a import A
from .z import B
from .c import C


def trio():
    return A, B, C
