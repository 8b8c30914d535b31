from pkg.mod import (  # noqa
    a, c,
)
from pkg.new import (  # noqa
    b,
    D,
)


def check():
    assert a() == 'a' and b() == 'b' and c() == 'c' and D
