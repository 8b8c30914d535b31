from pkg.mod import *  # noqa: F403


def run():
    return func() + "-star"  # noqa: F405
