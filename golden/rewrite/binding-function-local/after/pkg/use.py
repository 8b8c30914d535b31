def check():
    from pkg import mod, newmod

    assert newmod.func() == "func"
