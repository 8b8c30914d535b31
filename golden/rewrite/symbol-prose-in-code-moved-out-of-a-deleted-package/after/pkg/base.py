from pkg.builtin import sub


class Extension:
    """Base. See [`config`][pkg.base.Extension.config] and pkg.builtin.sub.f."""

    config = {}
    names = ("pkg.builtin.sub",)

    def run(self):
        return sub.f()
