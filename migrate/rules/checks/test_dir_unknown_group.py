"""KO103 test-dir-unknown-group: kernel test directories name only real groups.

## What it does
Reports a directory `test/registered/kernels/ops/<name>/` or
`test/registered/kernels/benchmark/<name>/` whose `<name>` is not a group in `_GROUPS`.

## Why
Numerical tests and CI benchmarks are filed by the group that owns the kernel. A
directory named after a model, a GPU or a retired group hides tests from the group's
owners and survives renames that should have moved it.

## Example
```text
test/registered/kernels/ops/deepseek/test_router.py   # bad: not a group
test/registered/kernels/ops/moe/test_router.py        # good
```

## Fix
Move the tests into the directory of the group that owns the tested kernel.
"""

from __future__ import annotations

import difflib

from migrate.rules.base import make_rule


def check(ctx, rule):
    groups = ctx.groups
    if not groups:
        return
    for (kind, name), directory in sorted(ctx.test_dirs().items()):
        if name in groups:
            continue
        near = difflib.get_close_matches(name, sorted(groups), n=1)
        yield rule.at(
            directory + "/",
            0,
            f"test/registered/kernels/{kind}/{name}/ does not name a group",
            evidence=f"groups: {', '.join(sorted(groups))}",
            fix=f"move its tests to test/registered/kernels/{kind}/<group>/"
            + (f" (did you mean {near[0]}?)" if near else ""),
        )


RULE = make_rule(__doc__, check, "error")
