from pkg import keyfuncs
from pkg.keyfuncs import hashkey
from pkg.keyfuncs import typedkey as typedkey
from pkg.keys import *


def check():
    assert keyfuncs.hashkey(1)[0] == 1 and keyfuncs.typedkey(1)[-1] is int
    assert other() == "other" and hashkey(2)[0] == 2
    import pkg.keys

    assert sorted(pkg.keys.__all__) == ["other"]
