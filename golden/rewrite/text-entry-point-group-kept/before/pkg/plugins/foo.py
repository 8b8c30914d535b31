class Foo:
    pass
