import pkg


def check():
    assert pkg.run() == 1
