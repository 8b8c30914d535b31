from pkg.mod import (  # noqa
    a, b,
    c, D,
)


def check():
    assert a() == 'a' and b() == 'b' and c() == 'c' and D
