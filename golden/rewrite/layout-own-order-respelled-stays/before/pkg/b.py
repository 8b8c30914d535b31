from pkg.a import A


class B(A):
    pass
