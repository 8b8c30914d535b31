

class Base:
    pass
