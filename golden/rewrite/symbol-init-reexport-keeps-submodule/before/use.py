import pkg


def check():
    assert pkg.func() + pkg.helper() == 3
    assert pkg.mod.other() == 3
    assert pkg.mod.REGISTRY == {"mod": "loaded"}
