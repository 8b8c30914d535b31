"""Chained plans: `A.yaml B.yaml` as the one plan that takes BASE straight to the end.

B is written against the tree A leaves, so its names are A's targets. Composition keeps
one relocation per file: `jit_kernel/x -> ops/moe/x` (A) then `ops/moe/x -> ops/lora/moe/x`
(B) is the move `jit_kernel/x -> ops/lora/moe/x`. So:

- every move of A keeps its source and takes its target through B's moves;
- a move of B whose source lies inside a target of A is re-sourced through A (the name
  it had in BASE); one whose source also exists in BASE untouched by A is kept as is;
- op ids compose the same way; groups that A adds and B removes (or the reverse) cancel;
- splits, deletes, kept prose and roots are united (B's split files re-sourced).

Every entry keeps the position in the plan file it came from, so errors point there.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

from migrate.index.repo import RepoIndex
from migrate.plan.model import Move, OpIdRename, Plan, Split


def _prefix(table: list[tuple[str, str]], name: str, sep: str) -> str | None:
    """`name` relocated by the longest (src, dst) of `table` that equals or prefixes it."""
    best = None
    for src, dst in table:
        if (name == src or name.startswith(src + sep)) and (
            best is None or len(src) > len(best[0])
        ):
            best = (src, dst)
    return best[1] + name[len(best[0]) :] if best else None


def _split_moves(plan: Plan):
    dotted = [(m.src, m.dst) for m in plan.moves if not m.is_path and not m.is_symbol]
    paths = [(m.src.rstrip("/"), m.dst.rstrip("/")) for m in plan.moves if m.is_path]
    return dotted, paths


def _module_paths(dotted, roots) -> list[tuple[str, str]]:
    """Module moves as path moves under every root (package dir and `.py` file)."""
    out = []
    for src, dst in dotted:
        for root in roots:
            pre = "" if root in (".", "") else root.rstrip("/") + "/"
            s, d = pre + src.replace(".", "/"), pre + dst.replace(".", "/")
            out += [(s, d), (s + ".py", d + ".py")]
    return out


def _exists(index: RepoIndex | None, name: str, is_path: bool) -> bool:
    if index is None:
        return True  # no BASE to look at (fix, stale): a mid-chain name may be stale too
    if is_path:
        p = name.rstrip("/")
        return p in index.files or bool(index.files_under(p))
    mod = name.split(":")[0]
    return mod in index.modules or index.is_package(mod)


def _as_mid(text: str, a_dotted) -> str:
    """Import lines of `text` with A's module moves applied (what the test imports after A)."""
    import re

    def sub(m: re.Match) -> str:
        return _prefix(a_dotted, m.group(0), ".") or m.group(0)

    return re.sub(r"\b[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+", sub, text)


def compose(a: Plan, b: Plan, index: RepoIndex | None) -> Plan:
    a_dotted, a_paths = _split_moves(a)
    b_dotted, b_paths = _split_moves(b)
    roots = tuple(dict.fromkeys((*a.roots, *b.roots)))
    b_all_paths = b_paths + _module_paths(b_dotted, roots)
    a_all_paths = a_paths + _module_paths(a_dotted, roots)

    def through_b(m: Move) -> Move:
        if m.is_path:
            new = _prefix(b_all_paths, m.dst.rstrip("/"), "/")
            return replace(m, dst=new + ("/" if m.dst.endswith("/") else "")) if new else m
        new = _prefix(b_dotted, m.dst, ".")
        return replace(m, dst=new) if new else m

    def follow(m: Move) -> Move:
        """A test A files under group g follows its kernels if B moves them on (stage B's
        tests-follow rule, seen from BASE)."""
        from migrate.rewrite.tests_follow import follow_target

        if not m.is_path or not m.dst.endswith(".py"):
            return m
        text = (index.text(m.src) if index is not None else None) or ""
        new, _ = follow_target(_as_mid(text, a_dotted), m.dst, lambda n: _prefix(b_dotted, n, "."))
        return replace(m, dst=new) if new else m

    moves = [follow(through_b(m)) for m in a.moves]
    a_sources = {m.src.rstrip("/") for m in a.moves}
    for m in b.moves:
        src = m.src.rstrip("/")
        if m.is_symbol:
            mod, sym = m.src.split(":")
            pre = _prefix([(d, s) for s, d in a_dotted], mod, ".")
            moves.append(replace(m, src=f"{pre}:{sym}") if pre else m)
            continue
        table = [(d, s) for s, d in (a_all_paths if m.is_path else a_dotted)]
        pre = _prefix(table, src, "/" if m.is_path else ".")
        if pre is not None and pre not in a_sources:
            moves.append(replace(m, src=pre + ("/" if m.src.endswith("/") else "")))
        moved_by_a = _prefix([(s, s) for s, _ in (a_all_paths if m.is_path else a_dotted)], src,
                             "/" if m.is_path else ".")  # fmt: skip
        if moved_by_a is None and _exists(index, m.src, m.is_path):
            moves.append(m)

    b_ops = {o.src: o.dst for o in b.op_ids}
    op_ids = [replace(o, dst=b_ops.get(o.dst, o.dst)) for o in a.op_ids]
    a_targets = {o.dst for o in a.op_ids}
    op_ids += [o for o in b.op_ids if o.src not in a_targets]
    op_ids = [o for o in op_ids if o.src != o.dst]

    add = [g for g in a.groups_add if g not in b.groups_remove] + list(b.groups_add)
    removed = list(a.groups_remove) + [g for g in b.groups_remove if g not in a.groups_add]
    both = set(add) & set(removed)
    add = [g for g in dict.fromkeys(add) if g not in both]
    removed = [g for g in removed if g not in both]

    inverse_files = [(d, s) for s, d in a_all_paths]
    splits = [
        Split(
            sp.file,
            tuple(replace(o, path=_prefix(b_all_paths, o.path, "/") or o.path) for o in sp.into),
            sp.pos,
        )
        for sp in a.splits
    ]
    splits += [replace(sp, file=_prefix(inverse_files, sp.file, "/") or sp.file) for sp in b.splits]

    sha = chain_sha([a, b])
    return Plan(
        path=a.path,
        sha256=sha,
        version=1,
        roots=roots,
        moves=tuple(moves),
        op_ids=tuple(OpIdRename(o.src, o.dst, o.pos) for o in op_ids),
        splits=tuple(splits),
        groups_add=tuple(add),
        groups_remove=tuple(removed),
        delete=a.delete + tuple(d for d in b.delete if d not in a.delete),
        keep_prose=tuple(dict.fromkeys((*a.keep_prose, *b.keep_prose))),
        encodings=tuple(dict.fromkeys((*a.encodings, *b.encodings))),
    )


def chain_sha(plans: list[Plan]) -> str:
    """The hash a chain of plans is recorded under (a single plan keeps its own)."""
    if len(plans) == 1:
        return plans[0].sha256
    return hashlib.sha256("".join(p.sha256 for p in plans).encode()).hexdigest()


def compose_all(plans: list[Plan], index: RepoIndex | None) -> Plan:
    """The chain as one plan; without an index (the tree is already in the final layout)
    every later move is kept too, so names from the middle of the chain are known."""
    out = plans[0]
    for p in plans[1:]:
        out = compose(out, p, index)
    return replace(out, sha256=chain_sha(plans))
