from pkg import (  # the helpers
    number,  # noqa: F401
    time,  # clocks
)


def local():
    from pkg import number, time

    return number.intcomma(2) + time.naturaltime(2)


def check():
    assert number.intcomma(1) + time.naturaltime(1) == "1t"
    assert local() == "2t"
