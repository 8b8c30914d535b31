import sys

import pkg.mod  # noqa: F401
from pkg.newmod import func


def check():
    assert func() == 1
    assert sys.modules["pkg.mod"].REGISTRY == {"mod": "loaded"}
