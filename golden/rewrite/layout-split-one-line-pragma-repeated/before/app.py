from pkg.mod import a, b, c, D  # noqa: F401


def check():
    assert a() == 'a' and b() == 'b' and c() == 'c' and D
