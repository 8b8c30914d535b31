from pkg import mod


def check():
    assert mod.make(3) == 3
    assert mod.make.__annotations__["x"] == "OrderedDict"
