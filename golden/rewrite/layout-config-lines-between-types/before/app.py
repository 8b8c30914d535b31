import other
import pkg

from pkg import a
from pkg.b import Y


def check():
    assert a.X + Y == 3 and pkg
    assert other.run() == 3
