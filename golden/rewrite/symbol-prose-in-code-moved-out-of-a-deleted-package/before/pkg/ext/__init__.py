from pkg.ext import sub


class Extension:
    """Base. See [`config`][pkg.ext.Extension.config] and pkg.ext.sub.f."""

    config = {}
    names = ("pkg.ext.sub",)

    def run(self):
        return sub.f()
