from _pytest.monkeypatch import MonkeyPatch

from pkg import (
    f_class,
    f_dotted,
    f_dotted_as,
    f_from,
    f_from_as,
    f_local,
    f_reexport,
    f_rel,
    f_star,
    f_try,
    f_typing,
)
from pkg.inner import f_reldot
from pkg.sub import (
    newmod as mod,
)

FORMS = [f_from_as, f_rel, f_reldot, f_dotted, f_dotted_as, f_reexport, f_star, f_local]


def check():
    assert f_from.run() == "from"
    got = [f.run() for f in [*FORMS, f_class, f_typing, f_try]]
    assert got == [
        "func-as", "func-dot", "func-dotdot", "func-dotted", "func-dotted-as",
        "func-reexport", "func-star", "func-local", "func-class", "func-typing", "func-try",
    ], got  # fmt: skip
    mp = MonkeyPatch()
    mp.setattr(mod, "func", lambda: "patched")
    assert f_rel.run() == "patched-dot" and f_dotted.run() == "patched-dotted"
    mp.undo()
