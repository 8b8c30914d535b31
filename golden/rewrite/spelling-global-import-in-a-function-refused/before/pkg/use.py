def setup():
    global mod
    from pkg import mod

    return mod.func()


def run():
    setup()
    return mod.func() + mod.other()
