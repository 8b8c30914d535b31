from pkg.a import A


class C(A):
    pass
