class Base:
    pass
