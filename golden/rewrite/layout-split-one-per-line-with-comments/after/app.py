from pkg.mod import (
    a,  # noqa: F401
    c
)
from pkg.new import (
    b,  # type: ignore
    D  # the last one
)


def check():
    assert a() == 'a' and b() == 'b' and c() == 'c' and D
