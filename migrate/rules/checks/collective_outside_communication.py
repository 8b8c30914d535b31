"""KO401 collective-outside-communication: collectives and peer memory belong to communication.

## What it does
Warns about a module in a group other than `communication` that defines or calls a
cross-rank collective or peer-memory primitive (all-reduce, all-gather, reduce-scatter,
all-to-all, multicast/NVLS, symmetric memory, custom all-reduce, IPC handles).
Heuristic: the evidence lists the identifiers that triggered it.

Vendored upstream trees (a directory with its own LICENSE/COPYING/AUTHORS) are skipped.

## Why
Decided rule: any cross-rank collective or peer-memory access puts the op in
`communication`, whatever compute it fuses (an all-reduce + RMSNorm is a communication
op). Such ops need communicator state and multi-GPU tests that other groups lack.

## Example
```python
# ops/layernorm/allreduce_rmsnorm.py
def fused_allreduce_rmsnorm(x, residual, weight, workspace): ...
```

## Fix
Move the module to `ops/communication/` and register its op as `communication.<name>`.
"""

from __future__ import annotations

from migrate.rules.base import make_rule
from migrate.rules.placement import outside_home

# Text prefilter: only modules mentioning a collective are tokenized.
HINT = (
    "all_reduce", "allreduce", "all_gather", "allgather", "reduce_scatter", "reducescatter",
    "all_to_all", "alltoall", "a2a", "multicast", "nvls", "symm", "custom_ar", "nccl",
    "ipc_handle", "peer_", "mnnvl", "two_shot", "one_shot",
)  # fmt: skip


def check(ctx, rule):
    what = "uses cross-rank collectives or peer memory"
    fix = "move it to ops/communication/ (communication whatever it fuses)"
    yield from outside_home(ctx, rule, HINT, "communication", ("communication",), what, fix)


RULE = make_rule(__doc__, check, "warning")
