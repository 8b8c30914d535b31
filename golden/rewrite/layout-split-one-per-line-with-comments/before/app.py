from pkg.mod import (
    a,  # noqa: F401
    b,  # type: ignore
    c,
    D  # the last one
)


def check():
    assert a() == 'a' and b() == 'b' and c() == 'c' and D
