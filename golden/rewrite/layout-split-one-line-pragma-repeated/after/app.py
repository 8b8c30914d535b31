from pkg.mod import a, c  # noqa: F401
from pkg.new import b, D  # noqa: F401


def check():
    assert a() == 'a' and b() == 'b' and c() == 'c' and D
