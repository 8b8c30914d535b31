"""A new module must not take the name of something its package already binds.

Importing a submodule `pkg.x` sets the attribute `x` of `pkg` when it loads. If the
plan creates `pkg.x` (a module move or a symbol move to a module that did not exist)
while `pkg/__init__.py` binds `x` to something else (a def, an assignment, an import, or
a star import that gives `x`), the package's `x` becomes the module as soon as the new
submodule is imported: toolz 1.0.0 with `toolz.recipes:partitionby -> toolz.partition`
replaced the function `toolz.partition` (from `from .itertoolz import *`) by the new
module, and `toolz.curry(toolz.partition)` raised at import. Refused at plan time, with
the binding named. A binding that imports the name out of the new module itself
(`from .x import x`, also what a moved symbol's own re-export becomes) loads the
submodule first and then rebinds the name: that is the usual pattern, and it is kept.
"""

from __future__ import annotations

from migrate.errors import Diagnostic, Pos
from migrate.index.repo import RepoIndex
from migrate.index.star_exports import StarExports
from migrate.plan.model import Plan
from migrate.relocate import Relocation


def _new_modules(index: RepoIndex, rel: Relocation) -> dict[str, str]:
    """Module the plan creates -> the plan source that creates it."""
    out = {}
    for old, new in rel.moved_modules.items():
        (old_pkg, _, old_leaf), (new_pkg, _, new_leaf) = old.rpartition("."), new.rpartition(".")
        if old_leaf == new_leaf and old_pkg and rel.module(old_pkg) == new_pkg:
            continue  # carried along with its package: the same name in the same namespace
        if new not in index.modules:
            out.setdefault(new, old)
    for (mod, sym), dst in rel.symbols.items():
        if dst not in index.modules and dst not in rel.moved_modules.values():
            out.setdefault(dst, f"{mod}:{sym}")
    return out


def shadowing_problems(plan: Plan, index: RepoIndex, rel: Relocation, pos_for) -> list[Diagnostic]:
    """`pos_for(path)`: the plan position of the move carrying the file at `path`."""
    out = []
    star = StarExports.of_index(index)
    for new, source in sorted(_new_modules(index, rel).items()):
        package, _, leaf = new.rpartition(".")
        path = index.modules.get(rel.old_module(package) or package) if package else None
        facts = index.facts(path) if path and path.endswith("__init__.py") else None
        if facts is None:
            continue
        why = None
        binding = facts.bindings.get(leaf)
        if binding is not None:
            target = binding.target
            moved = rel.dotted(target) or target if target else ""
            if not (moved == new or moved.startswith(new + ".")):
                why = f"binds `{leaf}` at line {binding.line} ({binding.kind})"
        else:
            for module in facts.star_imports:
                giver = star(module).get(leaf)
                if giver is not None and rel.symbols.get((giver, leaf)) != new:
                    via = f" (from {giver})" if giver != module else ""
                    why = f"binds `{leaf}` by `from {module} import *`{via}"
                    break
        if why is None:
            continue
        pos = next((mv.dst_pos for mv in plan.moves if mv.src == source), None)
        if pos is None:
            pos = pos_for(index.modules[source]) if source in index.modules else Pos(plan.path)
        out.append(
            Diagnostic(
                pos,
                f"moving {source} to {new}: {path} {why}; importing the new submodule "
                f"{new} would replace that value of {package}.{leaf} by the module: "
                "choose another module name",
            )
        )
    return out
