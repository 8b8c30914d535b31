import pkg.mod


def run():
    return pkg.mod.func() + "-dotted"
