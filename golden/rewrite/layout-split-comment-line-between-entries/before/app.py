import os

from pkg.mod import (  # head comment
    a,  # noqa: F401
    # a comment line between entries: about b
    b,  # type: ignore[attr-defined]
    c,
    d,
)  # closing comment


def check():
    assert os and a() == "a" and b() == "b" and c() == "c" and d() == "d"
