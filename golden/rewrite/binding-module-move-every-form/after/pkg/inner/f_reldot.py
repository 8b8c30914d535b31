from ..sub import newmod as mod


def run():
    return mod.func() + "-dotdot"
