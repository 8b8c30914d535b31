import sys

from pkg.mod import func


def check():
    assert func() == 1
    assert sys.modules["pkg.mod"].REGISTRY == {"mod": "loaded"}
