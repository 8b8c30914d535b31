from pkg import func


def run():
    return func() + "-reexport"
