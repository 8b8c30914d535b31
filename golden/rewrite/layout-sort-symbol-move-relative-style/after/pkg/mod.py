from .helpers import helper


def main():
    return helper()
