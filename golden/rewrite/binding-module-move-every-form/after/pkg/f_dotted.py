import pkg.sub.newmod


def run():
    return pkg.sub.newmod.func() + "-dotted"
