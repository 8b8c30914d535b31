import json

from pkg import reg, types, utils
from pkg.exceptions import E
from pkg.utils import (
    aware,
    keep,
)


def check():
    assert utils.aware() + utils.getv() + utils.keep() == "awaregetvkeep"
    assert reg.X == 1 and types.T is int and aware() + keep() == "awarekeep"
    assert issubclass(E, Exception) and json
