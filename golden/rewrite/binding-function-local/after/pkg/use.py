def check():
    from pkg import newmod

    assert newmod.func() == "func"
