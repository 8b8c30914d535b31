"""The typed plan: what a migration does, with the YAML position of every value."""

from __future__ import annotations

from dataclasses import dataclass, field

from migrate.errors import Pos

OPS = "sglang.kernels.ops"  # the package whose subpackages are the operator groups


@dataclass(frozen=True)
class Move:
    """One `moves:` entry.

    `kind` is decided against the repository index: `module`, `package`, `symbol`
    (`from` has `module:name`) or `path` (`from` contains `/`).
    """

    src: str
    dst: str
    pos: Pos
    src_pos: Pos
    dst_pos: Pos
    kind: str = ""

    @property
    def is_path(self) -> bool:
        return "/" in self.src

    @property
    def is_symbol(self) -> bool:
        return ":" in self.src


@dataclass(frozen=True)
class OpIdRename:
    src: str
    dst: str
    pos: Pos


@dataclass(frozen=True)
class SplitOutput:
    path: str
    take: tuple[str, ...]
    pos: Pos

    @property
    def takes_rest(self) -> bool:
        return "rest" in self.take


@dataclass(frozen=True)
class Split:
    file: str
    into: tuple[SplitOutput, ...]
    pos: Pos


@dataclass(frozen=True)
class Plan:
    path: str
    sha256: str
    version: int
    roots: tuple[str, ...] = (".",)
    moves: tuple[Move, ...] = ()
    op_ids: tuple[OpIdRename, ...] = ()
    splits: tuple[Split, ...] = ()
    groups_add: tuple[str, ...] = ()
    groups_remove: tuple[str, ...] = ()
    groups_remove_pos: tuple[Pos, ...] = ()
    delete: tuple[str, ...] = ()
    delete_pos: tuple[Pos, ...] = ()
    keep_prose: tuple[str, ...] = ()
    positions: dict[str, Pos] = field(default_factory=dict, compare=False)
