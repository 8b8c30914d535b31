from pkg import mod


def check():
    mod.__dict__["WIDTH"] = 80
    assert mod.width() == 80
    vars(mod)["WIDTH"] = None
    assert mod.width() == 10
    assert vars(mod)["width"] is mod.__dict__["width"]
    mod.__dict__["LIMIT"] = 5
    assert mod.limit() == 5
    vars(mod)["LIMIT"] = 6
    assert mod.limit() == 6
