from pkg.mod import f


def check():
    assert f() == 1 and f.__module__ == "pkg.new"
