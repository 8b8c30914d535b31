from pkg import registry


def init():
    registry.HANDLERS["on_reset"] = reset


def reset():
    return "reset"


init()
