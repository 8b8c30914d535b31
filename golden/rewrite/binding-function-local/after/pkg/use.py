def check():
    from pkg import mod
    from pkg import newmod

    assert newmod.func() == "func"
