import json

from pkg import access, datetimes, types, utils
from pkg.datetimes import (
    aware,
)
from pkg.exceptions import E
from pkg.registry import classes as reg
from pkg.utils import (
    keep,
)


def check():
    assert datetimes.aware() + access.getv() + utils.keep() == "awaregetvkeep"
    assert reg.X == 1 and types.T is int and aware() + keep() == "awarekeep"
    assert issubclass(E, Exception) and json
