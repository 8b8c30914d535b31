try:
    from pkg.sub import newmod as mod
except ImportError:
    mod = None


def run():
    return mod.func() + "-try"
