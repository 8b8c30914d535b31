import os

from pkg.mod import (  # head comment
    a,  # noqa: F401
    c,
)
from pkg.new import (  # head comment
    # a comment line between entries: about b
    b,  # type: ignore[attr-defined]
    d,
)  # closing comment


def check():
    assert os and a() == "a" and b() == "b" and c() == "c" and d() == "d"
