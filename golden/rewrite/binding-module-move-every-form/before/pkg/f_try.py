try:
    from pkg import mod
except ImportError:
    mod = None


def run():
    return mod.func() + "-try"
