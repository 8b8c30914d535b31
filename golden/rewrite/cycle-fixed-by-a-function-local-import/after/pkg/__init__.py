from tools.helpers import helper


def run():
    return helper()
