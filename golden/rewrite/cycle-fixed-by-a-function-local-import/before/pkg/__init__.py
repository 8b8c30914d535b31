from .helpers import helper


def run():
    return helper()
