from pkg import api


def check():
    assert api.pipe(1) == (1,) and api.frozen() == "frozen"
