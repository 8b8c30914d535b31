from pkg import mod, newmod


def check():
    newmod.__dict__["WIDTH"] = 80
    assert newmod.width() == 80
    vars(newmod)["WIDTH"] = None
    assert newmod.width() == 10
    assert vars(newmod)["width"] is newmod.__dict__["width"]
    mod.__dict__["LIMIT"] = 5
    assert mod.limit() == 5
    vars(mod)["LIMIT"] = 6
    assert mod.limit() == 6
