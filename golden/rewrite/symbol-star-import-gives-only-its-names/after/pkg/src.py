from pkg.common import *
from pkg.more import *


def other():
    return 1
