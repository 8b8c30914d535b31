import importlib

_TABLE = [
    ("dsv4.rms_normalize_hip", "rms_normalize_hip"),
    ("flash", "flash"),
]


def targets():
    out = []
    for _mod, _fn in _TABLE:
        out.append(f"pkg.ops.attention.{_mod}:{_fn}")
    return out


def check():
    for t in targets():
        mod, fn = t.split(":")
        assert callable(getattr(importlib.import_module(mod), fn))
