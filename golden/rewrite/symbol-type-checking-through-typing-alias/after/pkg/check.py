import typing

from pkg.mod import other
from pkg.newmod import make


def check():
    assert make(1) == other()
    assert typing.get_type_hints(make, {"OrderedDict": dict})["x"] is dict
