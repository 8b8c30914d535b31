FLAG = True


def helper():
    return "h"
