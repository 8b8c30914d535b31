from pkg import grouping
from pkg.dates import (  # the helpers
    time,  # clocks
)


def local():
    from pkg import grouping
    from pkg.dates import time

    return grouping.intcomma(2) + time.naturaltime(2)


def check():
    assert grouping.intcomma(1) + time.naturaltime(1) == "1t"
    assert local() == "2t"
