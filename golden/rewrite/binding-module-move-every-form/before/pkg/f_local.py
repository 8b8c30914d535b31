def run():
    from pkg import mod

    return mod.func() + "-local"
