import pkg.mod as m


def run():
    return m.func() + "-dotted-as"
