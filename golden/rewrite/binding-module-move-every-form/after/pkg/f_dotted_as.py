import pkg.sub.newmod as m


def run():
    return m.func() + "-dotted-as"
