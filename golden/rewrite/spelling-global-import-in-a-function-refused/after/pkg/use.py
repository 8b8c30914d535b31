def setup():
    global mod
    from pkg import mod, newmod

    return newmod.func()


def run():
    setup()
    return mod.func() + mod.other()
