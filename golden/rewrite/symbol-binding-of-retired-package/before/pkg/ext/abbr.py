from pkg.ext import Extension


class Abbr(Extension):
    name = "abbr"
