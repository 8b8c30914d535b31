"""KO504 forwarding-shim: no module that only re-exports another module's names.

## What it does
Reports a module under `sglang/kernels/` or the legacy `sglang/jit_kernel/` whose body
(after the docstring, `from __future__`, and `__all__`) is nothing but imports: a
non-package module re-exporting anything, or a package `__init__.py` re-exporting from
outside its own package (`from new.place import *` left at an old path).

## Why
A shim keeps old import paths alive, so callers never move, concurrent PRs keep landing
on the old path, and two module objects can hold separate singleton state.

## Example
```python
# python/sglang/jit_kernel/norm.py
from sglang.kernels.ops.layernorm.norm import *  # noqa: F401,F403
```

## Fix
Rewrite every reference to the new path (`migrate` does this) and delete the shim.
"""

from __future__ import annotations

import ast
import re

from migrate.index.imports import absolute, under
from migrate.layout.names import LEGACY_PKG
from migrate.rules.base import make_rule

# Text prefilter: a top-level statement other than an import or `__all__` means real work.
_DOES_WORK = re.compile(
    r"^(?:(?:async\s+)?def|class|if|for|while|with|try|@)\b|^(?!__all__)[A-Za-z_][\w.]*\s*[=(:]",
    re.M,
)


def _body(mod: ast.Module) -> list[ast.stmt]:
    body = list(mod.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    out = []
    for s in body:
        if isinstance(s, ast.ImportFrom) and s.module == "__future__":
            continue
        if isinstance(s, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in s.targets
        ):
            continue
        out.append(s)
    return out


def shim_source(mod: ast.Module, module: str, is_package: bool) -> str | None:
    """The module re-exported by a shim, or None when the module does real work."""
    body = _body(mod)
    if not body or not all(isinstance(s, (ast.Import, ast.ImportFrom)) for s in body):
        return None
    sources = []
    for s in body:
        if isinstance(s, ast.ImportFrom):
            sources.append(absolute(s.module, s.level, module, is_package))
        else:
            sources.extend(a.name for a in s.names)
    if is_package and all(under(src, module) for src in sources):
        return None  # a package exporting its own submodules
    return sources[0]


def check(ctx, rule):
    dirs = [d for d in (ctx.kernels_dir, ctx.tree.package_dir(LEGACY_PKG)) if d]
    for d in dirs:
        for path in ctx.python_under(d):
            text = ctx.tree.text(path) or ""
            if "import" not in text or len(text) > 4000 or _DOES_WORK.search(text):
                continue
            mod, module = ctx.tree.ast(path), ctx.tree.module_of(path)
            if mod is None or module is None:
                continue
            src = shim_source(mod, module, path.endswith("__init__.py"))
            if src:
                yield rule.at(
                    path,
                    0,
                    f"{module} only re-exports {src}",
                    fix=f"point every reference at {src} and delete {path}",
                )


RULE = make_rule(__doc__, check, "error")
