_NAMES = ["flash_v2", "decode"]


def ids():
    return [f"attention.{n}" for n in _NAMES]


def check():
    assert ids() == ['attention.flash_v2', 'attention.decode']
