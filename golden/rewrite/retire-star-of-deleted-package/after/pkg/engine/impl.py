def run():
    return "run"


class Thing:
    kind = "thing"


def hidden():
    return "not in __all__"
