from pkg.dst import greet
from pkg.src import other


def check():
    assert (greet(), other()) == ("hello0", 1)
