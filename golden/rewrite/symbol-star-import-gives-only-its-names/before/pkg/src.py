from pkg.common import *
from pkg.more import *


def greet():
    return _("hello") + str(twice(base()))


def other():
    return 1
