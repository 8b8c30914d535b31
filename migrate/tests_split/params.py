"""Static expansion of literal `pytest.mark.parametrize` into pytest's own ids.

Mirrors `_pytest.python.IdMaker` for values known without running code: literals,
module-level literal constants, `range`, `itertools.product`, `pytest.param(id=...)`
and `ids=[...]`. Anything else still yields the right number of cases when the value
list is literal, with an `argnameN` id and `exact=False` when pytest might differ.
"""

from __future__ import annotations

import ast
import builtins
import itertools
from collections import Counter, defaultdict
from dataclasses import dataclass

UNKNOWN = object()
_NON_PRINTABLE = {i: f"\\x{i:02x}" for i in range(128) if i not in range(32, 127)}
_NON_PRINTABLE.update({ord("\t"): "\\t", ord("\r"): "\\r", ord("\n"): "\\n"})


@dataclass(frozen=True)
class ParamIds:
    """The ids one parametrize mark contributes (None: not statically expandable)."""

    ids: tuple[str, ...] | None
    exact: tuple[bool, ...] = ()  # per id: False where pytest may spell it differently


def ascii_escaped(val: str | bytes) -> str:
    if isinstance(val, bytes):
        ret = val.decode("ascii", "backslashreplace")
    else:
        ret = val.encode("unicode_escape").decode("ascii")
    return ret.translate(_NON_PRINTABLE)


def is_parametrize(dec: ast.expr) -> bool:
    """`@pytest.mark.parametrize(...)` or `@mark.parametrize(...)`."""
    return (
        isinstance(dec, ast.Call)
        and isinstance(dec.func, ast.Attribute)
        and dec.func.attr == "parametrize"
        and isinstance(dec.func.value, (ast.Attribute, ast.Name))
        and (getattr(dec.func.value, "attr", None) or getattr(dec.func.value, "id", None)) == "mark"
    )


def module_env(tree: ast.Module) -> dict[str, object]:
    """Module-level names bound once to a literal (value) or to a def/class (its name)."""
    env: dict[str, object] = {}
    seen: Counter = Counter()
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            tgt = stmt.targets[0]
            if isinstance(tgt, ast.Name):
                seen[tgt.id] += 1
                env[tgt.id] = evaluate(stmt.value, env)
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value:
            seen[stmt.target.id] += 1
            env[stmt.target.id] = evaluate(stmt.value, env)
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            seen[stmt.name] += 1
            env[stmt.name] = _Named(stmt.name)
    return {k: v for k, v in env.items() if seen[k] == 1 and v is not UNKNOWN}


class _Named:
    """A def or class: pytest uses its `__name__` as the id."""

    def __init__(self, name: str):
        self.__name__ = name


def evaluate(node: ast.expr, env: dict[str, object]) -> object:
    """The value of a statically known expression, or UNKNOWN."""
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        pass
    if isinstance(node, ast.Name):
        if node.id in env:
            return env[node.id]
        if hasattr(builtins, node.id) and isinstance(getattr(builtins, node.id), type):
            return _Named(node.id)
        return UNKNOWN
    if isinstance(node, (ast.List, ast.Tuple)):
        items = [evaluate(e, env) if not _is_param(e) else _ParamCall(e, env) for e in node.elts]
        return items if isinstance(node, ast.List) else tuple(items)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mult)):
        left, right = evaluate(node.left, env), evaluate(node.right, env)
        if left is UNKNOWN or right is UNKNOWN:
            return UNKNOWN
        try:
            return left + right if isinstance(node.op, ast.Add) else left * right
        except TypeError:
            return UNKNOWN
    if isinstance(node, ast.Subscript):
        return _subscript(node, env)
    if isinstance(node, ast.Call) and not node.keywords:
        fname = dotted(node.func)
        args = [evaluate(a, env) for a in node.args]
        if any(a is UNKNOWN for a in args):
            return UNKNOWN
        if fname in ("list", "tuple") and len(args) == 1:
            return list(args[0]) if fname == "list" else tuple(args[0])
        if fname == "range" and all(isinstance(a, int) for a in args):
            return list(range(*args))
        if fname in ("itertools.product", "product"):
            return list(itertools.product(*args))
    return UNKNOWN


def _subscript(node: ast.Subscript, env: dict[str, object]) -> object:
    """`SHAPES[:2]`, `CASES[1]`: indexing a known list with literal bounds."""
    base = evaluate(node.value, env)
    if not isinstance(base, (list, tuple)):
        return UNKNOWN
    sl = node.slice
    if isinstance(sl, ast.Slice):
        bounds = [
            evaluate(b, env) if b is not None else None for b in (sl.lower, sl.upper, sl.step)
        ]
        if all(b is None or isinstance(b, int) for b in bounds):
            return base[slice(*bounds)]
        return UNKNOWN
    index = evaluate(sl, env)
    if isinstance(index, int) and -len(base) <= index < len(base):
        return base[index]
    return UNKNOWN


def dotted(node: ast.expr) -> str:
    """`a.b.c` for a chain of names and attributes, else ""."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{dotted(node.value)}.{node.attr}"
    return ""


def _is_param(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and dotted(node.func) in ("pytest.param", "param")


class _ParamCall:
    """`pytest.param(*values, id=..., marks=...)` seen statically."""

    def __init__(self, node: ast.Call, env: dict[str, object]):
        self.values = [evaluate(a, env) for a in node.args]
        self.id = UNKNOWN
        self.has_id = False
        for kw in node.keywords:
            if kw.arg == "id":
                self.has_id = True
                self.id = evaluate(kw.value, env)


def _idval(val: object, argname: str, idx: int) -> tuple[str, bool]:
    """pytest's id for one value; (id, exact)."""
    if val is UNKNOWN:
        return f"{argname}{idx}", False
    if isinstance(val, (str, bytes)):
        if len(val) > 100:
            return f"{argname}{idx}", True
        return ascii_escaped(val), True
    if val is None or isinstance(val, (bool, int, float, complex)):
        return str(val), True
    if isinstance(val, _Named):
        return val.__name__, True
    return f"{argname}{idx}", True


def _idfn(node: ast.expr):
    """`ids=str` or `ids=lambda v: f"...{v}..."`, applied without running code."""
    if isinstance(node, ast.Name) and node.id == "str":
        return str
    if not (
        isinstance(node, ast.Lambda)
        and len(node.args.args) == 1
        and isinstance(node.body, ast.JoinedStr)
    ):
        return None
    arg = node.args.args[0].arg
    parts = []
    for v in node.body.values:
        if isinstance(v, ast.Constant):
            parts.append(v.value)
        elif (
            isinstance(v, ast.FormattedValue)
            and isinstance(v.value, ast.Name)
            and v.value.id == arg
            and v.format_spec is None
            and v.conversion in (-1, 115)
        ):
            parts.append(None)
        else:
            return None
    return lambda val: "".join(str(val) if p is None else p for p in parts)


def _argnames(node: ast.expr) -> tuple[list[str], bool] | None:
    """(names, force_tuple): one name given as a string takes each value whole."""
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError):
        return None
    if isinstance(value, str):
        names = [n.strip() for n in value.split(",") if n.strip()]
        return names, len(names) == 1
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return list(value), False
    return None


def _unique(ids: list[str]) -> list[str]:
    """pytest's suffixing of duplicate ids (`make_unique_parameterset_ids`)."""
    counts = Counter(ids)
    if len(counts) == len(ids):
        return ids
    taken = set(ids)
    suffixes: dict[str, int] = defaultdict(int)
    out = list(ids)
    for i, id_ in enumerate(ids):
        if counts[id_] > 1:
            sep = "_" if id_ and id_[-1].isdigit() else ""
            new = f"{id_}{sep}{suffixes[id_]}"
            while new in taken:
                suffixes[id_] += 1
                new = f"{id_}{sep}{suffixes[id_]}"
            out[i] = new
            suffixes[id_] += 1
    return out


def parametrize_ids(dec: ast.Call, env: dict[str, object]) -> ParamIds:
    """The ids of one parametrize decorator, in pytest's order."""
    args = list(dec.args)
    kws = {kw.arg: kw.value for kw in dec.keywords if kw.arg}
    names_node = args[0] if args else kws.get("argnames")
    values_node = args[1] if len(args) > 1 else kws.get("argvalues")
    ids_node = args[3] if len(args) > 3 else kws.get("ids")
    if names_node is None or values_node is None:
        return ParamIds(None)
    parsed = _argnames(names_node)
    values = evaluate(values_node, env)
    if parsed is None or not isinstance(values, (list, tuple)):
        return ParamIds(None)
    names, force_tuple = parsed
    if not values:
        return ParamIds(("NOTSET",), (True,))
    explicit = evaluate(ids_node, env) if ids_node is not None else None
    idfn = None
    known_fn = True
    if ids_node is not None and not isinstance(explicit, (list, tuple)):
        idfn = _idfn(ids_node)
        known_fn = idfn is not None  # another ids callable: same count, other names
        explicit = None
    out: list[str] = []
    exact: list[bool] = []
    for idx, item in enumerate(values):
        exact.append(known_fn)
        param = item if isinstance(item, _ParamCall) else None
        vals = (
            param.values
            if param
            else ([item] if force_tuple or not isinstance(item, (list, tuple)) else list(item))
        )
        if param and param.has_id and param.id is not None:
            if param.id is UNKNOWN:
                exact[-1] = False
                out.append(f"{names[0]}{idx}")
            else:
                out.append(ascii_escaped(str(param.id)))
            continue
        if explicit is not None and idx < len(explicit) and explicit[idx] is not None:
            ident, ok = _idval(explicit[idx], names[0], idx)
            out.append(ident)
            exact[-1] &= ok
            continue
        if len(vals) != len(names):
            vals = [UNKNOWN] * len(names)
        if idfn is not None:
            vals = [idfn(v) if v is not UNKNOWN else v for v in vals]
        parts = [_idval(v, n, idx) for v, n in zip(vals, names, strict=True)]
        out.append("-".join(p for p, _ in parts))
        exact[-1] &= all(ok for _, ok in parts)
    return ParamIds(tuple(_unique(out)), tuple(exact))
