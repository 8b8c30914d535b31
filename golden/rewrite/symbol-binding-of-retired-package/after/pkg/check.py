import os
from pkg import extension_base
from pkg import factory

from .builtin.abbr import Abbr


def check():
    assert extension_base.Extension.name == "base"
    assert factory.make().name == "base"
    assert extension_base.Extension is extension_base.Extension
    assert issubclass(Abbr, extension_base.Extension) and os.sep
