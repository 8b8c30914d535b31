from pkg.sub.newmod import *  # noqa: F403


def run():
    return func() + "-star"  # noqa: F405
