from pkg import newmod


def check():
    assert newmod.make(3) == 3
    assert newmod.make.__annotations__["x"] == "OrderedDict"
