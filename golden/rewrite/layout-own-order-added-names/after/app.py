import json

from pkg.registry import classes as reg
from pkg import types, utils
from pkg import datetimes
from pkg import access
from pkg.exceptions import E
from pkg.datetimes import (
    aware,
)
from pkg.utils import (
    keep,
)


def check():
    assert datetimes.aware() + access.getv() + utils.keep() == "awaregetvkeep"
    assert reg.X == 1 and types.T is int and aware() + keep() == "awarekeep"
    assert issubclass(E, Exception) and json
