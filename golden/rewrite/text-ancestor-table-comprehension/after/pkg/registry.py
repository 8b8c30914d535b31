import importlib

_TABLE = [
    ("norms.rms_norm", "rms_normalize_hip"),
    ("flash", "flash"),
]


def targets():
    return [f"pkg.ops.attention.{_mod}:{_fn}" for _mod, _fn in _TABLE]


def check():
    for t in targets():
        mod, fn = t.split(":")
        assert callable(getattr(importlib.import_module(mod), fn))
