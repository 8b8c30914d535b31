from pkg.wc import total
from pkg.widths import sep, width


def check():
    assert total(["ab"]) == width("ab") == 2 and sep()
    assert width.cache_info().hits >= 1
