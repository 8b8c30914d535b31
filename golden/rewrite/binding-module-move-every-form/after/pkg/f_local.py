def run():
    from pkg.sub import newmod as mod

    return mod.func() + "-local"
