import os
import pkg.ext as px
from pkg import ext
from pkg import ext as E

from . import ext as rel
from .ext.abbr import Abbr


def check():
    assert ext.Extension.name == "base"
    assert E.make().name == "base"
    assert px.Extension is rel.Extension
    assert issubclass(Abbr, ext.Extension) and os.sep
