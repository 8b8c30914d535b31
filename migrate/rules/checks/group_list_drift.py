"""KO102 group-list-drift: `_GROUPS`, the README group sentence and `ops/` directories agree.

## What it does
Compares three lists of operator groups: the literal `_GROUPS` tuple in
`sglang/kernels/ops/__init__.py`, the README sentence "Operator groups (all populated):
`a`, `b`, ..." in `sglang/kernels/README.md`, and the package directories under `ops/`.
Reports every name missing from one of them, duplicates, and a missing sentence.

## Why
The group list drifted from `_GROUPS` for several releases in the real repository. A
directory under `ops/` that is not in `_GROUPS` is never imported, so its registrations
silently vanish; a model bundle placed there is not a group at all.

## Example
```python
_GROUPS = ("activation", "gemm")  # README also lists `moe`; ops/deepseek_v3/ exists
```

## Fix
Add or remove the name in all three places together (a new group needs a distinct
responsibility); move a model bundle into the logical group that owns its computation.
"""

from __future__ import annotations

from collections import Counter

from migrate.rules.base import make_rule


def check(ctx, rule):
    declared, readme = ctx.declared_groups, ctx.readme_groups
    if not ctx.ops_dir:
        return
    dirs = {g for g, d in ctx.group_dirs.items() if g not in ("__pycache__",)}
    if declared is None:
        init = f"{ctx.ops_dir}/__init__.py"
        if ctx.tree.exists(init):
            yield rule.at(
                init,
                1,
                "ops/__init__.py has no literal `_GROUPS` tuple",
                fix="declare `_GROUPS = (...)` with every group name",
            )
        return
    for name, n in Counter(declared.names).items():
        if n > 1:
            yield rule.at(*declared.where(name), f"group {name!r} appears {n} times in _GROUPS")
    g = set(declared.names)
    for name in sorted(dirs - g):
        yield rule.at(
            ctx.group_dirs[name] + "/",
            0,
            f"ops/{name}/ is not in _GROUPS: never imported, so nothing in it registers",
            evidence=f"_GROUPS at {declared.path}:{declared.line}",
            fix=f"move it into a logical group (a model bundle is not a group), or add "
            f"{name!r} to _GROUPS, the README group sentence and the tests together",
        )
    for name in sorted(g - dirs):
        yield rule.at(
            *declared.where(name),
            f"_GROUPS lists {name!r} but ops/{name}/ does not exist",
            fix=f"create ops/{name}/ or remove {name!r} from _GROUPS and the README",
        )
    if not ctx.readme_path:
        return
    if readme is None:
        yield rule.at(
            ctx.readme_path,
            0,
            "README has no 'Operator groups (all populated): ...' sentence",
            severity="warning",
            fix="list every group of _GROUPS in that sentence",
        )
        return
    r = set(readme.names)
    for name in sorted(g - r):
        yield rule.at(
            readme.path,
            readme.line,
            f"README group sentence omits {name!r}",
            evidence=f"_GROUPS at {declared.path}:{declared.line} lists it",
            fix=f"add `{name}` to the README sentence",
        )
    for name in sorted(r - g):
        yield rule.at(
            *readme.where(name),
            f"README group sentence lists {name!r}, which is not in _GROUPS",
            fix=f"remove `{name}` from the README or add it to _GROUPS",
        )


RULE = make_rule(__doc__, check, "error")
