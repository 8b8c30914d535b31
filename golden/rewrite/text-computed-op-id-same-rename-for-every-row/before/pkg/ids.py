_NAMES = ["flash", "decode"]


def ids():
    return [f"attention.{n}" for n in _NAMES]


def check():
    assert ids() == ['attn.flash', 'attn.decode']
