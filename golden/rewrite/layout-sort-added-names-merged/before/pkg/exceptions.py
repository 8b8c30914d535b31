class E(Exception):
    pass
