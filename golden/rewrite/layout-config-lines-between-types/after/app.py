import other
import pkg

from pkg.b import Y
from pkg.z import a


def check():
    assert a.X + Y == 3 and pkg
    assert other.run() == 3
