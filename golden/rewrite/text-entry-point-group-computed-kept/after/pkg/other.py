from importlib.metadata import entry_points

NAME = "pkg"


def group():
    return f"{NAME}.plugins"


def load():
    return list(entry_points(group=f"{NAME}.plugins"))
