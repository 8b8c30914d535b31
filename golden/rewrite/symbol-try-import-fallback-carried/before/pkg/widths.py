import os


def sep():
    return os.sep
