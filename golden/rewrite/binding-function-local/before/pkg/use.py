def check():
    from pkg import mod

    assert mod.func() == "func"
