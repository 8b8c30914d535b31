from pkg.jitter import Jitter
from pkg.wait import Base


def check():
    assert Jitter().f() == 2 and issubclass(Jitter, Base)
