"""Pytest plugin that records every call of the moved public wrappers.

Loaded in the test subprocess with `-p migrate.parity.recorder`; configured by the JSON
file named in `MIGRATE_PARITY_CONFIG`:

    {"out": DIR, "seed": 0, "targets": {"pkg.mod": {"fn": "op.id", ...}, ...}}

Because `-p` plugins load before conftest files and test modules, the import hook is in
place before anything imports a target module; wrapping the module's attributes right
after it executes means `from pkg.mod import fn` elsewhere binds the wrapped function.
Each process (xdist workers too) writes its own `*-<pid>.jsonl` files under DIR.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.abc
import importlib.util
import json
import os
import platform
import random
import re
import sys
import threading
import traceback

import pytest

CONFIG_ENV = "MIGRATE_PARITY_CONFIG"
COLLECTION = "<collection>"
_MAX_DEPTH = 4

_cfg: dict = {}
_state = threading.local()
_current = {"nodeid": COLLECTION}
_ordinals: dict[tuple[str, str], int] = {}
_seq = [0]


# -- output ---------------------------------------------------------------------------
def _emit(kind: str, record: dict) -> None:
    path = os.path.join(_cfg["out"], f"{kind}-{os.getpid()}.jsonl")
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(record, sort_keys=True, default=repr) + "\n")


# -- tensors --------------------------------------------------------------------------
def _torch():
    return sys.modules.get("torch")


def _is_tensor(x) -> bool:
    t = _torch()
    return t is not None and isinstance(x, t.Tensor)


def _leaves(obj, path: str, depth: int = 0):
    """(path, value) for every tensor or plain leaf inside args/returns."""
    if _is_tensor(obj):
        yield path, obj
    elif isinstance(obj, (list, tuple)) and depth < _MAX_DEPTH:
        for i, v in enumerate(obj):
            yield from _leaves(v, f"{path}[{i}]", depth + 1)
    elif isinstance(obj, dict) and depth < _MAX_DEPTH:
        for k in sorted(obj, key=repr):
            yield from _leaves(obj[k], f"{path}[{k!r}]", depth + 1)
    else:
        yield path, obj


def _raw(t):
    """The tensor's bytes, on the host, in logical (contiguous) order."""
    t = t.detach()
    if t.is_complex():
        t = _torch().view_as_real(t)
    return t.cpu().contiguous().reshape(-1).view(_torch().uint8).numpy().tobytes()


def _tensor_hash(t) -> str:
    h = hashlib.sha256(f"{t.dtype}|{tuple(t.shape)}|".encode())
    h.update(_raw(t))
    return h.hexdigest()[:32]


def _describe(value) -> dict:
    if _is_tensor(value):
        return {
            "tensor": True,
            "shape": list(value.shape),
            "dtype": str(value.dtype).replace("torch.", ""),
            "device": str(value.device),
            "stride": list(value.stride()),
            "hash": _tensor_hash(value),
        }
    text = repr(value) if isinstance(value, (int, float, str, bool, type(None))) else None
    return {"tensor": False, "type": type(value).__name__, "repr": _in_tree(text)}


def _in_tree(text: str | None) -> str | None:
    """Paths into the checkout as `<tree>/...`, BASE paths in their HEAD spelling."""
    if text and _cfg.get("root") and _cfg["root"] in text:
        text = _TREE_PATH.sub(_moved_path, text.replace(_cfg["root"], "<tree>"))
    return text


_TREE_PATH = re.compile(r"<tree>/([^'\"\s]+)")


def _moved_path(match) -> str:
    """`<tree>/old/path` as its HEAD spelling, so a moved file's path compares equal."""
    path, files = match.group(1), _cfg.get("path_moves", {})
    if path in files:
        return f"<tree>/{files[path]}"
    head, tail = path, ""
    while "/" in head:
        head, _, last = head.rpartition("/")
        tail = f"/{last}{tail}"
        if head in _dir_moves():
            return f"<tree>/{_dir_moves()[head]}{tail}"
    return match.group(0)


@functools.cache
def _dir_moves() -> dict[str, str]:
    dirs: dict[str, str] = {}
    for old, new in _cfg.get("path_moves", {}).items():
        if os.path.basename(old) == os.path.basename(new):
            dirs.setdefault(os.path.dirname(old), os.path.dirname(new))
    return dirs


def _snapshot(args, kwargs) -> dict[str, dict]:
    leaves = list(_leaves(list(args), "args"))
    leaves += list(_leaves({k: kwargs[k] for k in sorted(kwargs)}, "kwargs"))
    return {p: _describe(v) for p, v in leaves}


def _input_hash(snap: dict[str, dict]) -> str:
    h = hashlib.sha256()
    for path in sorted(snap):
        d = snap[path]
        key = d.get("hash") or f"{d.get('type')}:{d.get('repr')}"
        h.update(f"{path}={key};{d.get('stride')}\n".encode())
    return h.hexdigest()[:32]


# -- wrapping -------------------------------------------------------------------------
_NO_GRID = object()


def _record_call(op: str, fn, args, kwargs, grid=_NO_GRID):
    """Call `fn`, recording inputs, outputs and the tensors it wrote. With `grid`, `fn` is a
    kernel launch: its results are the tensors it wrote, and the contents of those (often
    `torch.empty` buffers) are not part of its inputs."""
    nodeid = _current["nodeid"]
    key = (nodeid, op)
    ordinal = _ordinals.get(key, 0)
    _ordinals[key] = ordinal + 1
    launch = grid is not _NO_GRID
    before = _snapshot(args, kwargs)
    if launch and isinstance(grid, (int, tuple, list)):
        before.update({p: _describe(v) for p, v in _leaves(grid, "grid")})
    tensors_before = {p: v for p, v in _leaves(list(args), "args") if _is_tensor(v)}
    tensors_before.update(
        {p: v for p, v in _leaves({k: kwargs[k] for k in sorted(kwargs)}, "kwargs")}
    )
    record = {
        "op": op,
        "nodeid": nodeid,
        "ordinal": ordinal,
        "inputs": before,
        "input_hash": _input_hash(before),
    }
    if launch:
        record["launch"] = True
    try:
        result = fn(*args, **kwargs)
    except BaseException as exc:
        record["error"] = _in_tree(f"{type(exc).__name__}: {exc}")
        _emit("calls", record)
        raise
    outputs: dict[str, dict] = {}
    saved = {}
    for path, value in [] if launch else _leaves(result, "return"):
        outputs[path] = _describe(value)
        if _is_tensor(value):
            saved[path] = value.detach().cpu().clone()
    for path, value in tensors_before.items():
        if not _is_tensor(value):
            continue
        after = _tensor_hash(value)
        if after != before[path]["hash"]:
            outputs[path] = dict(_describe(value), mutated=True)
            saved[path] = value.detach().cpu().clone()
    if launch:  # what a launch wrote is its output; what was there before is not an input
        written = {p: dict(d, hash="written") for p, d in before.items() if p in outputs}
        record["input_hash"] = _input_hash({**before, **written})
    record["outputs"] = outputs
    if saved:
        _seq[0] += 1
        name = f"t-{os.getpid()}-{_seq[0]}.pt"
        _torch().save(saved, os.path.join(_cfg["out"], name))
        record["tensors"] = name
    _emit("calls", record)
    return result


def _outermost(op: str, fn, args, kwargs, grid=_NO_GRID):
    """Record only the outermost recorded call: what a wrapper does inside is its business."""
    if getattr(_state, "busy", False):
        return fn(*args, **kwargs)
    _state.busy = True
    try:
        return _record_call(op, fn, args, kwargs, grid)
    finally:
        _state.busy = False


def _wrap(fn, op: str):
    if getattr(fn, "__migrate_parity_op__", None):
        return fn

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return _outermost(op, fn, args, kwargs)

    wrapper.__migrate_parity_op__ = op
    return wrapper


_LAUNCH_OP = "_migrate_parity_launch_op"
_launch_classes: dict[type, type] = {}


def _is_triton_kernel(obj) -> bool:
    """A `@triton.jit` function (compiled or interpreted, autotuned or not)."""
    cls = type(obj)
    return cls.__module__.startswith("triton.") and hasattr(cls, "__getitem__")


def _launch_class(cls: type) -> type:
    """`cls` whose `kernel[grid]` returns a recording launcher. The kernel object keeps its
    identity (other kernels call it as a device function, Triton hashes its globals), only
    its class changes."""
    if cls not in _launch_classes:

        def __getitem__(self, grid):
            launch = cls.__getitem__(self, grid)
            op = self.__dict__.get(_LAUNCH_OP)
            if op is None:
                return launch
            return lambda *args, **kwargs: _outermost(op, launch, args, kwargs, grid)

        attrs = {"__getitem__": __getitem__, "__module__": cls.__module__}
        _launch_classes[cls] = type(cls.__name__, (cls,), attrs)
    return _launch_classes[cls]


class _OpProxy:
    """Stands in for `torch.ops.<ns>.<name>` (and its overloads): records each call."""

    def __init__(self, target, op: str):
        self._target, self._op = target, op

    def __call__(self, *args, **kwargs):
        return _outermost(self._op, self._target, args, kwargs)

    def __getattr__(self, name):
        attr = getattr(self._target, name)
        if type(attr).__name__ == "OpOverload":
            return _OpProxy(attr, self._op)
        return attr


def _instrument_torch_op(path: str, op: str) -> bool:
    torch = _torch()
    parts = path.split(".")
    if torch is None or len(parts) != 4:
        return False
    try:
        namespace = getattr(torch.ops, parts[2])
        target = getattr(namespace, parts[3])
    except (AttributeError, RuntimeError):
        return False
    if not isinstance(target, _OpProxy):
        setattr(namespace, parts[3], _OpProxy(target, op))
    return True


def _instrument_attr(module, path: str, op: str) -> bool:
    """Wrap `module.<path>`: a function, a class member (`Class.method`, static or not), a
    method of a module-level instance (`_OP.forward_triton`), a kernel, a torch op."""
    if path.startswith("torch.ops."):
        return _instrument_torch_op(path, op)
    *owners, leaf = path.split(".")
    owner = module
    for part in owners:
        owner = getattr(owner, part, None)
        if owner is None:
            return False
    obj = getattr(owner, leaf, None)
    if _is_triton_kernel(obj):
        if _LAUNCH_OP in obj.__dict__:  # already instrumented (module imported twice)
            obj.__dict__[_LAUNCH_OP] = op
            return True
        try:
            obj.__dict__[_LAUNCH_OP] = op
            obj.__class__ = _launch_class(type(obj))
        except (AttributeError, TypeError):
            return False
        return True
    raw = owner.__dict__.get(leaf) if isinstance(owner, type) else None
    if isinstance(raw, (staticmethod, classmethod)):
        setattr(owner, leaf, type(raw)(_wrap(raw.__func__, op)))
    elif callable(obj):
        setattr(owner, leaf, _wrap(obj, op))
    else:
        return False
    return True


def _configs_info(module) -> dict:
    here = os.path.dirname(getattr(module, "__file__", "") or "")
    cfg_dir = os.path.join(here, "configs")
    files = sorted(os.listdir(cfg_dir)) if os.path.isdir(cfg_dir) else None
    root = _cfg.get("root")
    if root and here.startswith(root.rstrip(os.sep) + os.sep):
        here = os.path.relpath(here, root).replace(os.sep, "/")
    return {"dir": here, "configs": files}


def _instrument(module) -> None:
    targets = _cfg["targets"].get(module.__name__, {})
    found = [attr for attr, op in sorted(targets.items()) if _instrument_attr(module, attr, op)]
    _emit(
        "modules",
        {
            "module": module.__name__,
            "file": getattr(module, "__file__", None),
            "wrapped": found,
            "missing": sorted(set(targets) - set(found)),
            **_configs_info(module),
        },
    )


class _Loader(importlib.abc.Loader):
    def __init__(self, inner):
        self.inner = inner

    def create_module(self, spec):
        return self.inner.create_module(spec)

    def exec_module(self, module):
        self.inner.exec_module(module)
        _instrument(module)

    def __getattr__(self, name):
        return getattr(self.inner, name)


class _Finder(importlib.abc.MetaPathFinder):
    """Finds target modules through the rest of sys.meta_path, then wraps their loader."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in _cfg.get("targets", {}):
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = _Loader(spec.loader)
                return spec
        return None


# -- environment ----------------------------------------------------------------------
def _env_info() -> dict:
    info = {
        "python": platform.python_version(),
        "executable": sys.executable,
        "triton_interpret": os.environ.get("TRITON_INTERPRET", ""),
        "cuda_visible_devices": os.environ.get("CUDA_VISIBLE_DEVICES"),
        "default_device": os.environ.get("MIGRATE_PARITY_DEFAULT_DEVICE"),
    }
    try:
        import torch

        info["torch"] = torch.__version__
        info["torch_cuda"] = torch.version.cuda
        info["cuda_available"] = torch.cuda.is_available()
        if info["cuda_available"]:
            info["gpus"] = [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]
            cap = torch.cuda.get_device_capability(0)
            info["capability"] = f"sm_{cap[0]}{cap[1]}"
    except Exception as exc:  # noqa: BLE001 - reported, not hidden
        info["torch_error"] = f"{type(exc).__name__}: {exc}"
    try:
        import triton

        info["triton"] = triton.__version__
    except Exception as exc:  # noqa: BLE001
        info["triton_error"] = f"{type(exc).__name__}: {exc}"
    return info


def _default_device() -> None:
    """Tests written for the CPU interpreter create tensors without a device: on a GPU
    run (`--default-device cuda`) they land on the GPU, so compiled kernels can run."""
    dev = os.environ.get("MIGRATE_PARITY_DEFAULT_DEVICE")
    if dev:
        import torch

        torch.set_default_device(dev)


def _seed_all(seed: int) -> None:
    random.seed(seed)
    with contextlib.suppress(ImportError):
        import numpy

        numpy.random.seed(seed)
    t = _torch()
    if t is not None:
        t.manual_seed(seed)


def _probe_imports() -> None:
    """Import every target module now so a broken dependency is reported with its text."""
    for name in sorted(_cfg["targets"]):
        try:
            importlib.import_module(name)
            err = None
        except BaseException as exc:  # noqa: BLE001 - any failure is data
            err = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        _emit("imports", {"module": name, "error": err})


# -- pytest hooks ---------------------------------------------------------------------
def pytest_configure(config):
    path = os.environ.get(CONFIG_ENV)
    if not path:
        return
    with open(path, encoding="utf-8") as fh:
        _cfg.update(json.load(fh))
    os.makedirs(_cfg["out"], exist_ok=True)
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
    for name in list(_cfg["targets"]):
        if name in sys.modules:
            _instrument(sys.modules[name])
    with open(os.path.join(_cfg["out"], f"env-{os.getpid()}.json"), "w", encoding="utf-8") as fh:
        json.dump(_env_info(), fh, indent=1, sort_keys=True)
    _default_device()
    _seed_all(int(_cfg.get("seed", 0)))
    _probe_imports()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    _current["nodeid"] = item.nodeid
    yield
    _current["nodeid"] = COLLECTION


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    if _cfg:
        _default_device()
        _seed_all(int(_cfg.get("seed", 0)))


def _longrepr(report) -> str:
    text = str(report.longrepr or "")
    return text[-2000:]


def pytest_runtest_logreport(report):
    if not _cfg:
        return
    if report.when == "call" or report.outcome != "passed":
        outcome = report.outcome
        if report.when != "call" and outcome == "failed":
            outcome = "error"
        _emit(
            "outcomes",
            {
                "nodeid": report.nodeid,
                "when": report.when,
                "outcome": outcome,
                "detail": "" if outcome == "passed" else _longrepr(report),
            },
        )


def pytest_collectreport(report):
    if _cfg and report.failed:
        _emit(
            "outcomes",
            {
                "nodeid": report.nodeid,
                "when": "collect",
                "outcome": "error",
                "detail": _longrepr(report),
            },
        )
