from pkg import target


def check():
    assert target.calc() == (1, "helped")
