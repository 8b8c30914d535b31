from pkg import mod


def check():
    assert mod.calc() == (1, "helped")
