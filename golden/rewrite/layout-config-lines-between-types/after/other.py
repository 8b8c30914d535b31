import os

import pkg

from pkg.b import Y
from pkg.w import helper


def run():
    return helper() + Y if os and pkg else 0
