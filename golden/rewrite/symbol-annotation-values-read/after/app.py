from pkg.new import f


def check():
    assert f() == 1 and f.__module__ == "pkg.new"
