"""What every per-file rewrite needs to know: one frozen run context, one job per file.

Both are plain picklable data so that a process pool can rewrite files in parallel.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from functools import cached_property

from migrate.changes import Edit
from migrate.errors import Diagnostic
from migrate.index.bindings import Bindings, scope_model
from migrate.relocate import Relocation
from migrate.rewrite.import_order import ImportOrder


@dataclass(frozen=True)
class Context:
    relocation: Relocation
    op_ids: dict[str, str] = field(default_factory=dict)
    # Old names (modules and packages) that no longer exist after the plan: a reference
    # to one that the relocation cannot answer is a stale reference, reported.
    gone: frozenset[str] = frozenset()
    # Every module name after the plan (unmoved old ones, moved ones, symbol targets).
    new_modules: frozenset[str] = frozenset()
    # (module, symbol) -> top-level functions of `module` that still call `symbol` after a
    # symbol move: a patch of the new location does not reach them.
    symbol_callers: dict[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)
    # Such a symbol stays bound in its old module (imported back), so a patch of it there
    # stays there; these read it from the new module instead and do not see that patch
    # (`run_context.patch_misses`).
    patch_misses: dict[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)
    # (module, name) -> where a patch string replaces that name of that module whole: a
    # binding of an old module patched so keeps its reads of moved symbols the old module
    # still binds (`patch_targets.patched_bindings`).
    patched_bindings: dict[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)
    # Deleted package -> common prefix of where its modules went (prose fallback only).
    package_fallback: dict[str, str] = field(default_factory=dict)
    # `pkg.name` re-exported by a deleted package's `__init__` -> the absolute origin.
    reexports: dict[str, str] = field(default_factory=dict)
    # Deleted package -> what `from pkg import *` becomes ([(module, names or None for
    # `*`)]), None where no spelling exists (`run_context.gone_stars`).
    gone_stars: dict[str, list | None] = field(default_factory=dict)
    # `pkg.sub` for a moved submodule whose package rebinds `sub` over it at import time
    # (`from .sub import thing as sub`): read as an attribute of `pkg`, it is that binding.
    shadowed: frozenset[str] = frozenset()
    roots: tuple[str, ...] = (".",)
    keep_prose: tuple[str, ...] = ()
    # Files and directories inside deleted packages: a path there that exists is left
    # alone (a warning elsewhere), one that does not follows the package's fallback.
    deleted_paths: frozenset[str] = frozenset()
    # `module.name` that some file imports by name (`from module import name`), for the
    # modules that bind one losing a symbol: such a binding is never removed as unused.
    imported_names: frozenset[str] = frozenset()
    # `other.name` -> the module losing a symbol that module `other` binds as `name`
    # (`scan.module_aliases`): `user.mod.f` elsewhere reads pkg.mod's `f` (trial25 T52).
    module_aliases: dict[str, str] = field(default_factory=dict)
    # Old spellings without their root package -> the full old name (text_files decides):
    # Python comments and strings naming one get a review note.
    rootless: tuple[tuple[str, str], ...] = ()
    # Module losing symbols -> {symbol: new module} for the moved symbols its star export
    # gave (its literal `__all__`, else its public names): every `from module import *`
    # re-exported them, and must go on doing so.
    star_exports: dict[str, dict[str, str]] = field(default_factory=dict)
    # (new module, symbol) pairs that a star import of the new module gives after the plan.
    star_given: frozenset[tuple[str, str]] = frozenset()
    # Module losing a symbol -> what its import does beyond defining names (the code fact
    # `import_effect`), and the modules whose import runs it through imports the plan
    # keeps (`effect_imports.py`): a binding of it left without uses stays imported.
    import_effects: dict[str, str] = field(default_factory=dict)
    effect_reach: dict[str, frozenset[str]] = field(default_factory=dict)
    # Modules losing a symbol that still define a name of their own after the plan (a
    # def, a class, an assignment): a package `__init__` keeps importing such a module
    # when every name it imported from it moved (`submodule_keep.py`).
    still_defining: frozenset[str] = frozenset()
    # Directory -> the import order of its files (the project's isort settings, first
    # party): where the import finaliser sorts what it adds (`import_order.orders_by_dir`).
    import_orders: dict[str, ImportOrder] = field(default_factory=dict)

    def import_order(self, path: str) -> ImportOrder:
        """The import order of the file at `path`."""
        return self.import_orders.get(path.rsplit("/", 1)[0] if "/" in path else "", ImportOrder())


@dataclass(frozen=True)
class FileJob:
    """One Python file: where it was, where it goes, its decoded text."""

    old_path: str
    new_path: str
    text: str
    old_module: str | None
    new_module: str | None
    is_init: bool

    @cached_property
    def ast(self) -> ast.Module | None:
        """The file parsed once for every form that reads it (None: does not parse)."""
        try:
            return ast.parse(self.text)
        except (SyntaxError, ValueError):
            return None

    @cached_property
    def scopes(self) -> Bindings | None:
        """The one binding walk of the file (`index.bindings.scope_model`), done once."""
        tree = self.ast
        if tree is None:
            return None
        return scope_model(tree, self.text, self.old_module, self.is_init)

    @property
    def old_package(self) -> str | None:
        if self.old_module is None:
            return None
        return self.old_module if self.is_init else self.old_module.rpartition(".")[0]

    @property
    def new_package(self) -> str | None:
        if self.new_module is None:
            return None
        return self.new_module if self.is_init else self.new_module.rpartition(".")[0]


@dataclass
class FileResult:
    path: str  # new path
    edits: list[Edit] = field(default_factory=list)
    notes: list[Diagnostic] = field(default_factory=list)
    parse_error: Diagnostic | None = None
    parsed: bool = False  # whether libcst parsed it (tests assert untouched files are not)
    # Import-time events of the old text and of the text with `edits`, by
    # `import_time.key`: the cycle check reuses them instead of parsing both again.
    import_events: dict = field(default_factory=dict)
