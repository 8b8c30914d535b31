class KernelSpec:
    def __init__(self, op, target):
        self.op, self.target = op, target


def register_kernel(spec):
    return spec
