from pkg.extension_base import Extension


class Abbr(Extension):
    name = "abbr"
