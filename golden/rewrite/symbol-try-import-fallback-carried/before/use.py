from pkg.wc import total, width
from pkg.widths import sep


def check():
    assert total(["ab"]) == width("ab") == 2 and sep()
    assert width.cache_info().hits >= 1
