from pkg.wait import Base, Jitter


def check():
    assert Jitter().f() == 2 and issubclass(Jitter, Base)
