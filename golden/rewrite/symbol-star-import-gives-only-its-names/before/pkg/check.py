from pkg.src import greet, other


def check():
    assert (greet(), other()) == ("hello0", 1)
