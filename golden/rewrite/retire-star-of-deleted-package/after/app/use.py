from pkg.engine.mod import *
from pkg.engine.mod import func as f2
from pkg.engine.impl import Thing, run as go
from pkg.engine.impl import run as run_it
from pkg.engine.sub import twice


def check():
    assert func() == "func" and f2() == "func" and Klass.kind == "klass"
    assert go() == "run" and run_it() == "run" and Thing.kind == "thing"
    assert twice() == "funcfunc"
    assert "hidden" not in globals() and "_private" not in globals()
