from pkg.core import *
from pkg.core import func as f2
from pkg.base import *
from pkg.base import go as run_it
from pkg.core.sub import twice


def check():
    assert func() == "func" and f2() == "func" and Klass.kind == "klass"
    assert go() == "run" and run_it() == "run" and Thing.kind == "thing"
    assert twice() == "funcfunc"
    assert "hidden" not in globals() and "_private" not in globals()
