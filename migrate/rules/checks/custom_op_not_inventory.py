"""KO207 custom-op-not-inventory: a torch custom op is not a kernel inventory entry.

## What it does
Warns about a module in `ops/<group>/` that registers a torch custom op
(`torch.library.custom_op`, `torch.library.define`, `direct_register_custom_op`) while
no `KernelSpec` of any group targets that module.

Vendored upstream trees (a directory with its own LICENSE/COPYING/AUTHORS) are skipped.
## Why
`torch.library` registration makes an op visible to torch.compile; it does not put it in
SGLang's kernel inventory, so selectors, `list_kernels` and the namespace tests never see
it.

## Example
```python
# ops/activation/gelu.py
direct_register_custom_op("gelu_tanh", gelu_tanh_impl, mutates_args=[])
# ...and no KernelSpec(target="sglang.kernels.ops.activation.gelu:...") anywhere
```

## Fix
Add a `KernelSpec(op="<group>.<name>", target="<module>:<callable>")` in the group's
`__init__.py` (keep the custom op registration if torch.compile needs it).
"""

from __future__ import annotations

import re

from migrate.rules.base import make_rule

_CUSTOM = re.compile(
    r"\b(direct_register_custom_op|torch\.library\.(?:custom_op|define|register_fake|impl)|"
    r"register_custom_op)\s*\("
)


def check(ctx, rule):
    targeted = {reg.target.split(":", 1)[0] for _, reg in ctx.registrations if reg.target}
    for path in ctx.python_under(ctx.ops_dir):
        group = ctx.group_of(path)
        text = ctx.tree.text(path) or ""
        if group is None or ctx.is_vendored(path) or not ("custom_op" in text or "library" in text):
            continue
        m = _CUSTOM.search(text)
        module = ctx.tree.module_of(path)
        if m is None or module is None or module in targeted:
            continue
        line = text.count("\n", 0, m.start()) + 1
        yield rule.at(
            path,
            line,
            f"{module} registers a torch custom op but no KernelSpec targets it",
            evidence=text.splitlines()[line - 1].strip()[:160],
            fix=f"register KernelSpec(op='{group}.<name>', target='{module}:<callable>') "
            f"in ops/{group}/__init__.py",
        )


RULE = make_rule(__doc__, check, "warning")
