from pkg.sub import newmod as m


def run():
    return m.func() + "-as"
