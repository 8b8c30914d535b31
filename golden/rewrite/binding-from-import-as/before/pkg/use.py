from pkg import mod as m


def check():
    assert m.func() == "func"
