class Check:
    pass


class Color:
    RED = 1
