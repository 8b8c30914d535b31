"""Move HEAD, index and work tree from the base commit to the new tip, or not at all.

The commits already exist as objects; this is the only phase with visible effects.

- `prepare(tip)` checks every path the switch will write, remove or need as a directory
  (nothing untracked or ignored in the way, no file or symlink where a directory goes,
  no submodule changed other than moved), then writes a journal under the git dir: the
  refs, the index bytes, and the original bytes and mode of every path the switch touches
  (hard links, so a big move copies nothing). Nothing visible has changed yet.
- `switch(tip)` moves the ref by compare-and-swap, renames pure moves and moved submodules
  (their whole work tree; the `.git` file and `core.worktree` that tie it to its git dir
  are rewritten for the new place, as `git mv` does) and writes the rest from the tip.
- `rollback()` works from the journal alone, so the next invocation can finish it after a
  SIGKILL (`recover`). It restores the recorded bytes and modes (never a re-checkout
  through filters), leaves a file someone changed meanwhile as it is and says so, runs
  every step even when one fails, and lists what it could not restore and how to.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import shutil
import stat
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from migrate.git import GitError, git_path, null_oid, run_git
from migrate.git.index_stat import carry_stat, switched_index
from migrate.git.submodules import (
    checkout_problems,
    gitdir_value,
    gitfile_target,
    submodule_git_dir,
    worktree_setting,
)
from migrate.interrupts import signals_held

STATE_DIR = "migrate-journal"  # under the git dir: journal.json, index, files/<n>
GITLINK, SYMLINK = 0o160000, 0o120000


class Refused(Exception):
    """Reasons, one a line, why a step did not start: nothing was changed."""

    def __init__(self, reasons: list[str]):
        self.reasons = reasons
        super().__init__("\n".join(reasons))

    def __reduce__(self):
        return (type(self), (self.reasons,))


class SwitchRefused(Refused):
    """Something in the work tree is in the switch's way; nothing was changed."""


class Entry(NamedTuple):
    """One path the switch changes: its (mode, sha) at base and at tip (0/null id: absent)."""

    path: str
    base_mode: int
    base_sha: str
    tip_mode: int
    tip_sha: str


_RAW = re.compile(rb":(\d+) (\d+) (\w+) (\w+) [^\0]*\0([^\0]*)\0")


def diff_entries(repo: Path, base: str, tip: str, skip=()) -> list[Entry]:
    """Every path that differs between `base` and `tip`, except under the directories
    `skip` (literal paths: the ones renamed whole, whose trees are known equal)."""
    spec = [f":(exclude,literal){d}" for d in skip]
    out = run_git(
        repo, "diff-tree", "-r", "-z", "--no-renames", base, tip, *(["--", *spec] if spec else [])
    )
    modes: dict[bytes, int] = {}  # a handful of distinct modes: parsed once each
    return [
        Entry(
            path.decode("utf-8", "surrogateescape"),
            modes[bm] if bm in modes else modes.setdefault(bm, int(bm, 8)),
            bs.decode(),
            modes[tm] if tm in modes else modes.setdefault(tm, int(tm, 8)),
            ts.decode(),
        )
        for bm, tm, bs, ts, path in _RAW.findall(out)
    ]


def _climb(path: str, seen) -> list[str]:
    """The directories above repo path `path` that are not in `seen`, deepest first: the
    climb stops at the first one seen, since its parents were seen with it. Each pass
    over many paths adds what it climbed to its `seen`, so it visits a directory once."""
    out = []
    d = path.rpartition("/")[0]
    while d and d not in seen:
        out.append(d)
        d = d.rpartition("/")[0]
    return out


class TreeMove(NamedTuple):
    """A directory the switch renames whole: the base's tree at `old` is the tip's at `new`
    (`tree`, the same object), so its files (`files`, relative to it) are neither diffed
    nor journaled one by one; a rollback reads them again from `tree`."""

    old: str
    new: str
    tree: str
    files: list[tuple[str, int, str]]  # (relative path, mode, blob sha)
    shape: dict | None = None  # `layout()` once worked out: prepare's walk and the switch's

    def record(self) -> list[str]:
        return [self.old, self.new, self.tree]

    def pairs(self) -> list[list[str]]:
        """[old, new] repo paths of each file it carries."""
        o, n = self.old + "/", self.new + "/"
        return [[o + rel, n + rel] for rel, _m, _s in self.files]

    def layout(self) -> dict[str, tuple[set[str], set[str]]]:
        """Directory (relative; "" is `old`) -> (names of its files, names of its
        subdirectories), of the move's tree."""
        if self.shape is not None:
            return self.shape
        out: dict[str, tuple[set[str], set[str]]] = {"": (set(), set())}
        for rel, _m, _s in self.files:
            d, _, name = rel.rpartition("/")
            if d not in out:
                out[d] = (set(), set())
                sub = d
                while True:  # its parents, each naming the one below it
                    parent, _, child = sub.rpartition("/")
                    known = parent in out
                    if not known:
                        out[parent] = (set(), set())
                    out[parent][1].add(child)
                    if known:
                        break
                    sub = parent
            out[d][0].add(name)
        return out

    def dirs(self) -> list[str]:
        """The directories under `old` that hold its files (relative; "" is `old`)."""
        out = {""}
        for rel, _m, _s in self.files:
            d = rel.rpartition("/")[0]
            while d not in out:
                out.add(d)
                d = d.rpartition("/")[0]
        return sorted(out)


def _rename_candidates(moves: dict[str, str]) -> list[tuple[str, str]]:
    """(old dir, new dir) pairs a directory rename could make of `moves`: each move's
    parent directories, climbed while the names on both sides agree. Shallowest first."""
    direct = set()
    for old, new in moves.items():
        o, _, a = old.rpartition("/")
        n, _, b = new.rpartition("/")
        if a == b and o and n:
            direct.add((o, n))
    found: set[tuple[str, str]] = set()
    for o, n in direct:
        while (o, n) not in found:
            found.add((o, n))
            o, _, a = o.rpartition("/")
            n, _, b = n.rpartition("/")
            if a != b or not o or not n:
                break
    return sorted(found, key=lambda c: (c[0].count("/"), c))


def _objects(repo: Path, specs: list[str]) -> list[tuple[str, str] | None]:
    """(sha, type) of each `rev:path` (None where there is none), in one git call."""
    out = run_git(
        repo,
        "cat-file",
        "--batch-check=%(objectname) %(objecttype)",
        input="".join(s + "\n" for s in specs).encode("utf-8", "surrogateescape"),
    )
    found: list[tuple[str, str] | None] = []
    for line in out.decode("utf-8", "surrogateescape").split("\n")[: len(specs)]:
        sha, _, kind = line.rpartition(" ")
        found.append((sha, kind) if kind in ("tree", "blob", "commit", "tag") else None)
    return found


def tree_files(repo: Path, tree: str) -> list[tuple[str, int, str]] | None:
    """(relative path, mode, sha) of every entry of tree object `tree`, recursively; None
    when it holds a submodule (a gitlink's checkout is moved and re-tied on its own)."""
    out = []
    for rec in run_git(repo, "ls-tree", "-r", "-z", tree).split(b"\0"):
        meta, tab, name = rec.partition(b"\t")
        if not tab:
            continue
        mode, _kind, sha = meta.split(b" ")
        if mode == b"160000":
            return None
        out.append((name.decode("utf-8", "surrogateescape"), int(mode, 8), sha.decode()))
    return out


def _holds_exactly(top: str, at: str, move: TreeMove) -> bool:
    """Whether directory `at` of the work tree (`move.old` or `move.new`) holds the move's
    files and nothing else: no untracked or ignored entry, no empty or extra directory
    (a rename would carry it along)."""
    seen = 0
    for _here, entry, known in _walk(top, at, move.layout()):
        if not known or entry.is_dir(follow_symlinks=False):
            return False
        seen += 1
    return seen == len(move.files)


def _files_under(listing: dict, d: str) -> list[tuple[str, int, str]] | None:
    """`tree_files` of base's directory `d`, from base's whole `listing` (no git call)."""
    cut, prefix = len(d) + 1, d + "/"
    out = [(p[cut:], mode, sha) for p, (mode, sha) in listing.items() if p.startswith(prefix)]
    return None if any(mode == GITLINK for _r, mode, _s in out) else out


def tree_renames(
    repo: Path, base: str, tip: str, moves: dict[str, str], listing: dict | None = None
) -> list[TreeMove]:
    """The directories the switch renames whole, as `git mv` renames a directory: a
    directory `old` whose tree at base is, as one object, the tip's at `new`, where the
    tip has nothing at `old` and the base nothing at `new`; on disk `old` holds exactly
    that tree's files (no untracked, ignored or staying file, no empty directory, no
    submodule) and `new` does not exist. Candidates come from the plan's `moves`;
    shallowest first, nothing under a chosen one is chosen again. `listing`: base's whole
    listing (path -> (mode, sha)) when the caller has it: the files are taken from it."""
    cands = [c for c in _rename_candidates(moves) if "\n" not in c[0] + c[1]]
    if not cands:
        return []
    specs = [
        s for a, b in cands for s in (f"{base}:{a}", f"{tip}:{b}", f"{tip}:{a}", f"{base}:{b}")
    ]
    objs = _objects(repo, specs)
    top, chosen = os.fspath(repo), []
    for i, (a, b) in enumerate(cands):
        at_base, at_tip, still, taken = objs[4 * i : 4 * i + 4]
        if at_base is None or at_base[1] != "tree" or at_tip != at_base or still or taken:
            continue
        if any(a.startswith(m.old + "/") or b.startswith(m.new + "/") for m in chosen):
            continue
        if os.path.lexists(os.path.join(top, b)) or _dir_mode(os.path.join(top, a)) is None:
            continue
        files = tree_files(repo, at_base[0]) if listing is None else _files_under(listing, a)
        if not files:
            continue
        move = TreeMove(a, b, at_base[0], files)
        move = move._replace(shape=move.layout())
        if _holds_exactly(top, a, move):
            chosen.append(move)
    return chosen


def _put_back_strays(
    top: str, move: TreeMove, modes: dict, before_ns: int | None = None
) -> list[str]:
    """Rename back whatever went along when directory `old` was renamed to `new` but is
    none of the move's files: a file or directory created in
    `old` after `prepare` looked (its directories are made again, with their recorded
    modes). A line for each: where it is, or why it stays.

    `before_ns` (a rollback's): only entries whose ctime is before it, the time the renames
    began; one made or changed in `new` since is the user's there, and stays."""
    old, new = move.old, move.new
    strays = [
        f"{here}/{entry.name}"
        for here, entry, known in _walk(top, new, move.layout())
        if not known
        and (before_ns is None or entry.stat(follow_symlinks=False).st_ctime_ns < before_ns)
    ]
    back = []
    for sub in sorted(strays):
        dest = old + sub[len(new) :]
        _make_dirs(top, dest.rpartition("/")[0], modes)
        if os.path.lexists(os.path.join(top, dest)):  # made again meanwhile: never replaced
            back.append(f"{sub}: went along with its directory; {dest} is taken, so left here")
            continue
        os.rename(os.path.join(top, sub), os.path.join(top, dest))
        back.append(
            f"{dest}: created while apply ran in a directory it moved; left where it was "
            "(untracked)"
        )
    return back


RENAMING = "renaming"  # in the state dir: made just before the first directory rename


def _mark_renaming(state: Path) -> None:
    """Note, on the work tree's clock (a file's mtime), when the directory renames begin:
    what a rename carried along was made before it (see `_put_back_carried`). Not synced:
    after a power loss without it, a rollback only names what it would have moved."""
    os.close(os.open(state / RENAMING, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644))


def _put_back_carried(
    repo: Path, state: Path, j: Journal, moves: list[TreeMove], report: RollbackReport
) -> None:
    """Put back what a directory rename carried along when the switch stopped before its
    own put-back (a SIGKILL, a failure): each entry in a renamed directory that is none of
    the moves and was made before the renames began (its ctime). One made in the new
    directory since is the user's there: `_strangers` names it."""
    try:
        before_ns = os.stat(state / RENAMING).st_mtime_ns
    except OSError:
        return  # no directory was renamed
    top = os.fspath(repo)
    for move in moves:
        old, new = move.old, move.new
        if _dir_mode(os.path.join(top, new)) is None:
            continue
        try:
            report.left += _put_back_strays(top, move, j.dir_modes, before_ns)
        except OSError as exc:
            report.failed.append(
                f"{new}: could not put back what went along with it from {old} "
                f"({exc.strerror or exc}); move what is none of the plan's back by hand"
            )


def _make_dirs(top: str, rel: str, modes: dict) -> None:
    """Directory `rel` and its missing parents, each with its recorded mode if any."""
    missing = []
    while rel and _dir_mode(os.path.join(top, rel)) is None:
        missing.append(rel)
        rel = rel.rpartition("/")[0]
    for d in reversed(missing):
        os.mkdir(os.path.join(top, d))
        if d in modes:
            os.chmod(os.path.join(top, d), modes[d])


def _walk(top: str, rel: str, layout: dict[str, tuple[set, set]]):
    """(directory, `os.DirEntry`, whether its name is one of the layout's files there) of
    everything under directory `rel` of the work tree at `top`, going down only into the
    real directories (not symlinks) of `layout` (`TreeMove.layout`), which are not
    themselves yielded: the one walk of a renamed tree. Names are compared per directory,
    so no path is built for an expected entry."""
    stack, nothing = [(rel, "")], (frozenset(), frozenset())
    while stack:
        here, d = stack.pop()
        files, subs = layout.get(d, nothing)
        with os.scandir(os.path.join(top, here)) as it:
            for entry in it:
                name = entry.name
                if name in subs and entry.is_dir(follow_symlinks=False):
                    stack.append((f"{here}/{name}", f"{d}/{name}" if d else name))
                else:
                    yield here, entry, name in files


def pure_renames(entries: list[Entry], moves: dict[str, str]) -> list[list[str]]:
    """[old, new] for each move whose file the tip keeps byte- and mode-identical (a file
    or symlink gone from `old`, the same blob and mode new at `new`)."""
    gone = {e.path: e for e in entries if e.base_mode and not e.tip_mode}
    came = {e.path: e for e in entries if e.tip_mode and not e.base_mode}
    out = []
    for old in sorted(moves):  # keys: the items' order, cheaper to sort
        new = moves[old]
        a, b = gone.get(old), came.get(new)
        if a and b and a.base_mode == b.tip_mode != GITLINK and a.base_sha == b.tip_sha:
            out.append([old, new])
    return out


def submodule_moves(entries: list[Entry], moves: dict[str, str]) -> list[list[str]]:
    """[old, new] for each move of a gitlink to a new path (the same commit)."""
    gone = {e.path: e for e in entries if e.base_mode == GITLINK and not e.tip_mode}
    if not gone:
        return []
    came = {e.path: e for e in entries if e.tip_mode == GITLINK and not e.base_mode}
    out = []
    for old in sorted(moves):  # keys: the items' order, cheaper to sort
        new = moves[old]
        a, b = gone.get(old), came.get(new)
        if a and b and a.base_sha == b.tip_sha:
            out.append([old, new])
    return out


def filtered_paths(repo: Path, entries: list[Entry]) -> list[str]:
    """Files the switch writes that are under a content filter (LFS, ...) or `ident`:
    refused. Their blobs are not their work-tree bytes in a way eol conversion explains,
    so an edit of them is not what the user would get from git (a pure move is renamed
    in place and is not among `entries`)."""
    paths = [e.path for e in entries if e.tip_mode and e.tip_mode != GITLINK]
    if not paths:
        return []
    data = b"\0".join(p.encode("utf-8", "surrogateescape") for p in paths) + b"\0"
    out = run_git(repo, "check-attr", "-z", "--stdin", "filter", "ident", input=data)
    fields = out.decode("utf-8", "surrogateescape").split("\0")
    found = []
    for path, attr, value in zip(fields[0::3], fields[1::3], fields[2::3], strict=False):
        if value not in ("unspecified", "unset", ""):
            shown = attr if attr == "ident" else f"filter={value}"
            found.append(f"{path}: has {shown}; moving or editing filtered files is refused")
    return found


def preflight(
    repo: Path,
    entries: list[Entry],
    renamed: set[str] = frozenset(),
    submodules=(),
    new_dirs=(),
) -> list[str]:
    """What stands in the way of the switch (empty: nothing; the switch may run).

    `renamed`: both paths of the pure moves the switch renames in place; a filtered file
    among them never passes through its filter, so it is not refused. `submodules`: the
    [old, new] gitlink moves; any other change of a gitlink is refused. `new_dirs`: the
    new paths of directories renamed whole (absent: their parents are checked)."""
    tracked = {e.path for e in entries if e.base_mode}
    problems: list[str] = filtered_paths(repo, [e for e in entries if e.path not in renamed])
    moved = {p for pair in submodules for p in pair}
    problems += [p for old, _new in submodules for p in checkout_problems(repo, old)]
    top = os.fspath(repo) + os.sep
    kinds: dict[str, int | None] = {}  # directory -> its lstat mode (None: absent)

    def parents(path: str) -> None:
        """The directories `path` needs: absent or real ones, never a file or symlink."""
        for d in _climb(path, kinds):
            kinds[d] = mode = _lstat_mode(top + d)
            if mode is not None and d not in tracked and not stat.S_ISDIR(mode):
                if stat.S_ISLNK(mode):
                    problems.append(f"{d}: a symlink where {path} needs a directory")
                else:
                    problems.append(
                        f"{d}: an untracked or ignored file where a directory is needed"
                    )

    for d in new_dirs:
        parents(d)
    for e in entries:
        if GITLINK in (e.base_mode, e.tip_mode) and e.path not in moved:
            problems.append(f"{e.path}: a submodule the plan would change (refused)")
            continue
        if not e.tip_mode:
            continue
        parents(e.path)
        parent = e.path.rpartition("/")[0]
        if parent and kinds[parent] is None:
            continue  # its directory is not there, so neither is it
        full = top + e.path
        if not e.base_mode and os.path.lexists(full):
            is_dir = _dir_mode(full) is not None
            if not (is_dir and any(t.startswith(e.path + "/") for t in tracked)):
                what = "an untracked directory" if is_dir else "an untracked or ignored file"
                problems.append(f"{e.path}: {what} is in the way of a new path")
    return problems


def _lstat_mode(path: str) -> int | None:
    try:
        return os.lstat(path).st_mode
    except OSError:
        return None


@dataclass
class Journal:
    """Everything rollback needs, on disk before anything visible changes."""

    base: str
    tip: str
    head_ref: str | None  # None: detached HEAD
    branch: str | None  # a new branch the switch creates
    pid: int = field(default_factory=os.getpid)
    started: float = field(default_factory=time.time)
    phase: str = "prepared"  # prepared | switching | switched | rollback-incomplete
    had_index: bool = True
    entries: list[list] = field(default_factory=list)  # [path, bm, bsha, tm, tsha, backup]
    renames: list[list[str]] = field(default_factory=list)  # [old, new]: pure moves, renamed
    submodules: list[list] = field(default_factory=list)  # `_submodule_record`s, moved
    # [old, new, tree]: directories renamed whole; their files are the base's `tree`
    dir_renames: list[list[str]] = field(default_factory=list)
    new_dirs: list[str] = field(default_factory=list)  # deepest first
    dir_modes: dict[str, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)

    def save(self, state: Path) -> None:
        data = json.dumps(vars(self), separators=(",", ":"), check_circular=False)
        _write_durably(state / "journal.json", data.encode())

    def set_phase(self, state: Path, phase: str) -> None:
        """The phase lives in its own small file: a big journal is written once."""
        self.phase = phase
        _write_durably(state / "phase", phase.encode())

    @classmethod
    def load(cls, state: Path) -> Journal | None:
        try:
            data = json.loads((state / "journal.json").read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        j = cls(**data)
        with contextlib.suppress(FileNotFoundError):
            j.phase = (state / "phase").read_text(encoding="utf-8").strip() or j.phase
        return j


def _write_durably(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def state_dir(repo: Path) -> Path:
    return git_path(repo, STATE_DIR)


def _save_original(full: str, files: str, name: str, removed: bool) -> list:
    """Keep a path's original: ["link", target] or ["file", name, st_mode, size, mtime, ino]
    ([] when it is not there).

    A file the switch removes is renamed into the journal by `switch` itself (no copy,
    and its index entry stays valid until then), or renamed in place for a pure move;
    one it rewrites is hard-linked into `files` now.
    """
    try:
        st = os.lstat(full)
    except OSError:  # not there (`os.path.lexists` is false)
        return []
    if stat.S_ISLNK(st.st_mode):
        return ["link", os.readlink(full)]
    if not removed:
        backup = os.path.join(files, name)
        try:
            os.link(full, backup)
        except OSError:
            shutil.copy2(full, backup)  # no hard links here (another file system): copy
    return ["file", name, st.st_mode, st.st_size, st.st_mtime_ns, st.st_ino]


def _submodule_record(repo: Path, old: str, new: str) -> list:
    """[old, new, gitfile, gitdir, worktree]: the `.git` file's text (None: none), the git
    dir, and its `core.worktree` (None: unset), as they were before the switch. A
    submodule that is not checked out has none of them: only its gitlink moves."""
    dot = repo / old / ".git"
    gitfile = None
    if gitfile_target(dot) is not None:
        gitfile = dot.read_bytes().decode("utf-8", "surrogateescape")
    gitdir = submodule_git_dir(repo, old)
    known = gitdir is not None and gitdir.is_dir()
    worktree = worktree_setting(repo, gitdir) if known else None
    return [old, new, gitfile, str(gitdir) if gitdir else None, worktree]


def _spelled_like(target: str, value: str, start: Path) -> str:
    """`target` (absolute) spelled as `value` was: relative to `start`, or absolute."""
    return target if os.path.isabs(value) else os.path.relpath(target, start)


def _tie_submodule(repo: Path, rec: list, at: str) -> None:
    """Point the submodule's `.git` file and its git dir's `core.worktree` at its checkout
    at `at`: the new path in the switch, the old one (the recorded values) in a rollback."""
    old, _new, gitfile, gitdir, worktree = rec
    if gitdir is None:
        return
    here, back = repo / at, at == old
    dot = here / ".git"
    if gitfile is not None and gitfile_target(dot) is not None:
        spelled = _spelled_like(gitdir, gitdir_value(gitfile) or gitdir, here)
        data = (gitfile if back else f"gitdir: {spelled}\n").encode("utf-8", "surrogateescape")
        if dot.read_bytes() != data:
            _write_durably(dot, data)
    if worktree is not None:
        want = worktree if back else _spelled_like(str(here), worktree, Path(gitdir))
        if worktree_setting(repo, Path(gitdir)) != want:
            run_git(repo, "config", "--file", str(Path(gitdir) / "config"), "core.worktree", want)


def _dir_mode(path: str) -> int | None:
    """Permission bits of a real directory (not a symlink to one), else None."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return stat.S_IMODE(st.st_mode) if stat.S_ISDIR(st.st_mode) else None


def _read_index(path: str) -> tuple[bytes, int] | None:
    """The index's bytes and its mtime (ns), or None without one."""
    try:
        with open(path, "rb") as fh:
            return fh.read(), os.fstat(fh.fileno()).st_mtime_ns
    except OSError:
        return None


def _fsync_dir(path: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _record_whole(m: TreeMove, modes: dict, new_dirs: set, mode_of, left: set, made: set) -> None:
    """What a rollback needs of a directory renamed whole besides its record: the modes
    of its directories and of those above it, and the directories the rename makes."""
    for rel in m.dirs():
        d = f"{m.old}/{rel}" if rel else m.old
        if (mode := mode_of(d)) is not None:
            modes[d] = mode
        new_dirs.add(f"{m.new}/{rel}" if rel else m.new)
    for d in _climb(m.old, left):
        left.add(d)
        if (mode := mode_of(d)) is not None:
            modes[d] = mode
    for d in _climb(m.new, made):
        made.add(d)
        if mode_of(d) is None:
            new_dirs.add(d)


def _refresh(repo: Path, paths: list[str]) -> None:
    """Refresh the index's stat data of `paths` only: a file renamed alone has a new ctime.
    The rest is already right: what `checkout-index -u` wrote it refreshed itself, and the
    files of a directory renamed whole keep their inodes and times (`rename` of the
    directory changes neither), whose stat data the index carried, as `git mv` does; a
    refresh of the whole index would lstat every one of them again."""
    if paths:
        query = b"".join(p.encode("utf-8", "surrogateescape") + b"\0" for p in paths)
        run_git(
            repo,
            "--literal-pathspecs",
            "add",
            "--refresh",
            "--pathspec-from-file=-",
            "--pathspec-file-nul",
            input=query,
            check=False,
        )


class Transaction:
    """Fast-forward the current branch (or a new one) from `base` to a new tip."""

    def __init__(self, repo_dir: str | Path, base: str, branch: str | None = None, hook=None):
        self.dir = Path(repo_dir)
        self.base = base
        self.branch = branch
        self.hook = hook or (lambda point: None)
        ref = run_git(self.dir, "symbolic-ref", "-q", "HEAD", check=False).decode().strip()
        self.head_ref = ref or None
        self.state = state_dir(self.dir)
        self.journal: Journal | None = None
        self.left: list[str] = []  # what the switch left as someone else made it
        self.index: Path | None = None  # the index file (`prepare` asks git where)
        self.whole: list[TreeMove] = []  # the directories renamed whole (`prepare`'s)

    def prepare(
        self, tip: str, moves: dict[str, str] | None = None, listing: dict | None = None
    ) -> None:
        """Check the way is free, then record everything the switch will touch.

        `moves` (old -> new path) names the plan's moves: those whose blob and mode the tip
        keeps are renamed in place by the switch (the file keeps its inode, like `git mv`),
        everything else is checked out from the tip. `listing`: base's whole listing, if
        the caller has read it (`GitObjects.ls_tree`)."""
        moves = moves or {}
        whole = tree_renames(self.dir, self.base, tip, moves, listing)
        entries = diff_entries(self.dir, self.base, tip, [p for m in whole for p in m[:2]])
        renames = pure_renames(entries, moves)
        in_place = {p for pair in renames for p in pair}
        subs = submodule_moves(entries, moves)
        problems = preflight(self.dir, entries, in_place, subs, [m.new for m in whole])
        if problems:
            raise SwitchRefused(problems)
        j = Journal(self.base, tip, self.head_ref, self.branch)
        j.renames = renames
        j.submodules = [_submodule_record(self.dir, old, new) for old, new in subs]
        j.dir_renames = [m.record() for m in whole]
        self.whole = whole
        if self.state.exists():
            shutil.rmtree(self.state)  # a dead run's leftovers, after `recover` saw them
        (self.state / "files").mkdir(parents=True)
        self.index = index = git_path(self.dir, "index")
        j.had_index = index.exists()
        if j.had_index:
            shutil.copyfile(index, self.state / "index")
        new_dirs: set[str] = set()
        linked = False
        top, files = str(self.dir) + os.sep, str(self.state / "files")
        dirs: dict[str, int | None] = {}  # directory -> its mode (None: not a real directory)
        left: set[str] = set()  # directories whose modes were recorded (or looked at)
        made: set[str] = set()  # directories looked at for the tip

        def mode_of(d: str) -> int | None:
            return dirs[d] if d in dirs else dirs.setdefault(d, _dir_mode(top + d))

        for m in whole:  # one record each: the directories' modes, those the rename makes
            _record_whole(m, j.dir_modes, new_dirs, mode_of, left, made)
        for n, e in enumerate(entries):
            backup: list = []
            if e.base_mode:
                removed = not e.tip_mode
                if e.base_mode != GITLINK:  # a submodule's checkout is moved, never copied
                    backup = _save_original(top + e.path, files, str(n), removed)
                linked = linked or (bool(backup) and backup[0] == "file" and not removed)
                for d in _climb(e.path, left):  # the modes of the directories it was in
                    left.add(d)
                    if (mode := mode_of(d)) is not None:
                        j.dir_modes[d] = mode
            if e.tip_mode:
                for d in _climb(e.path, made):  # the directories the switch makes for it
                    made.add(d)
                    if mode_of(d) is None:
                        new_dirs.add(d)
            j.entries.append([e.path, e.base_mode, e.base_sha, e.tip_mode, e.tip_sha, backup])
        j.new_dirs = sorted(new_dirs, key=lambda d: d.count("/"), reverse=True)
        if linked:  # originals were linked (or copied) into `files`: make that durable,
            _fsync_dir(self.state / "files")
            # and refresh: a hard link changes the file's ctime, which the index records
            run_git(self.dir, "update-index", "-q", "--refresh", check=False)
        j.save(self.state)
        self.journal = j  # from here on, rollback (or the next `recover`) has what it needs
        self.hook("journal")

    def switch(self, tip: str) -> None:
        """Move the ref (compare-and-swap), then the work tree and the index: pure moves are
        renamed, the rest written from the tip (`checkout-index`), removed files go to the
        journal; the index becomes the tip's (`read-tree -m`, stat data kept), the renamed
        files' stat data refreshed."""
        j = self.journal
        msg = "migrate apply"
        j.set_phase(self.state, "switching")
        if self.branch:
            run_git(
                self.dir, "update-ref", "-m", msg, f"refs/heads/{self.branch}", tip, null_oid(tip)
            )
            run_git(self.dir, "symbolic-ref", "-m", msg, "HEAD", f"refs/heads/{self.branch}")
        elif self.head_ref:
            run_git(self.dir, "update-ref", "-m", msg, self.head_ref, tip, self.base)
        else:
            run_git(self.dir, "update-ref", "--no-deref", "-m", msg, "HEAD", tip, self.base)
        self.hook("ref")
        emptied = self._stash_removed() | self._rename_moved() | self._move_submodules()
        index = os.fspath(self.index)  # as `prepare` found it
        before = _read_index(index)
        changes = [e[:5] for e in j.entries]
        whole = [(m.old, m.new, m.files) for m in self.whole]
        hash_len = len(self.base) // 2
        if before is None or not switched_index(
            index, before[0], before[1], changes, j.renames, whole, hash_len
        ):  # renamed files keep their stat data, as with `git mv`
            run_git(self.dir, "read-tree", "-m", self.base, tip)  # the index only
            if before is not None:
                carried = j.renames + [p for m in self.whole for p in m.pairs()]
                carry_stat(index, before[0], before[1], carried, hash_len)
        renamed = {new for _old, new in j.renames}
        written = [e[0] for e in j.entries if e[3] not in (0, GITLINK) and e[0] not in renamed]
        if written:
            query = b"".join(p.encode("utf-8", "surrogateescape") + b"\0" for p in written)
            run_git(self.dir, "checkout-index", "-f", "-u", "-z", "--stdin", input=query)
        _refresh(self.dir, [new for _old, new in j.renames])
        _remove_empty_dirs(self.dir, emptied)
        self.hook("checkout")
        j.set_phase(self.state, "switched")

    def _stash_removed(self) -> set[str]:
        """Rename the files the switch removes into the journal (their original inodes);
        removed symlinks (their targets are in the journal) are deleted."""
        dirs = set()
        top, files = str(self.dir), str(self.state / "files")
        moved = {old for old, _new in self.journal.renames}
        for path, _bm, _bs, tip_mode, _ts, backup in self.journal.entries:
            if tip_mode or not backup or path in moved:
                continue
            if backup[0] == "file":
                os.rename(os.path.join(top, path), os.path.join(files, backup[1]))
            else:
                os.unlink(os.path.join(top, path))
            dirs.add(path.rpartition("/")[0])
        return dirs

    def _rename_moved(self) -> set[str]:
        """Rename every pure move in place, a whole directory in one rename where
        `tree_renames` found one (anything created in it since is renamed back and listed
        in `left`); the directories it left (to remove if empty)."""
        dirs, top, made = set(), str(self.dir), set()
        if self.whole:
            _mark_renaming(self.state)
        for m in self.whole:
            os.makedirs(os.path.dirname(os.path.join(top, m.new)), exist_ok=True)
            os.rename(os.path.join(top, m.old), os.path.join(top, m.new))
            dirs.add(m.old.rpartition("/")[0])
            self.hook("dir-rename")
            self.left += _put_back_strays(top, m, self.journal.dir_modes)
        for old, new in self.journal.renames:
            parent = os.path.dirname(os.path.join(top, new))
            if parent not in made:
                os.makedirs(parent, exist_ok=True)
                made.add(parent)
            os.rename(os.path.join(top, old), os.path.join(top, new))
            dirs.add(old.rpartition("/")[0])
        return dirs

    def _move_submodules(self) -> set[str]:
        """Rename each moved submodule's checkout (untouched inside) and re-tie it to its
        git dir; the directories it left (to remove if empty)."""
        dirs = set()
        for rec in self.journal.submodules:
            old, new = rec[0], rec[1]
            if os.path.lexists(self.dir / old):
                (self.dir / new).parent.mkdir(parents=True, exist_ok=True)
                os.rename(self.dir / old, self.dir / new)
            _tie_submodule(self.dir, rec, new)
            dirs.add(old.rpartition("/")[0])
        return dirs

    def finish(self) -> None:
        """The switch is complete: drop the journal and the originals it kept."""
        shutil.rmtree(self.state, ignore_errors=True)

    def rollback(self) -> RollbackReport:
        if self.journal is None:  # refused or failed before the journal: nothing visible
            with signals_held():
                saved = self.state / "index"
                if saved.exists():  # the stat refresh may have run: put the bytes back
                    _restore_index(self.dir, self.state, Journal(self.base, "", None, None))
                shutil.rmtree(self.state, ignore_errors=True)
            return RollbackReport()
        report = rollback(self.dir, self.journal, self.hook)
        report.left[:0] = self.left
        return report


@dataclass
class RollbackReport:
    left: list[str] = field(default_factory=list)  # changed meanwhile: left as they are
    failed: list[str] = field(default_factory=list)  # could not restore: how to do it

    @property
    def complete(self) -> bool:
        return not self.failed


def _remove_empty_dirs(repo: Path, dirs: set[str]) -> None:
    """The directories a move emptied go, as with `git mv`; any holding a file stays."""
    for d in sorted(dirs, key=lambda d: d.count("/"), reverse=True):
        while d:
            try:
                os.rmdir(repo / d)
            except OSError:
                break
            d = d.rpartition("/")[0]


def _wait_for_index_lock(repo: Path, seconds: float = 10.0) -> None:
    """A git we started may still be finishing (it runs in its own session)."""
    lock = git_path(repo, "index.lock")
    deadline = time.monotonic() + seconds
    while lock.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    lock.unlink(missing_ok=True)


def _restore_refs(repo: Path, j: Journal) -> list[str]:
    """Put HEAD and the branch back, by compare-and-swap: never over someone else's move."""
    left = []

    def current(ref: str) -> str:
        return run_git(repo, "rev-parse", "-q", "--verify", ref, check=False).decode().strip()

    if j.branch:
        ref = f"refs/heads/{j.branch}"
        if j.head_ref:
            run_git(repo, "symbolic-ref", "HEAD", j.head_ref)
        else:
            run_git(repo, "update-ref", "--no-deref", "HEAD", j.base)
        now = current(ref)
        if now == j.tip:
            run_git(repo, "update-ref", "-d", ref, j.tip)
        elif now:
            left.append(f"branch {j.branch} was moved to {now[:12]} meanwhile; left as it is")
        return left
    ref, args = (j.head_ref, []) if j.head_ref else ("HEAD", ["--no-deref"])
    now = current(ref)
    if now == j.tip:
        run_git(repo, "update-ref", *args, ref, j.base, j.tip)
    elif now != j.base:
        left.append(f"{ref} was moved to {now[:12]} meanwhile; left as it is")
    return left


def _restore_index(repo: Path, state: Path, j: Journal) -> None:
    index = git_path(repo, "index")
    if not j.had_index:
        index.unlink(missing_ok=True)
        return
    tmp = index.with_name("index.migrate-restore")
    try:
        shutil.copyfile(state / "index", tmp)
        os.replace(tmp, index)
    finally:
        tmp.unlink(missing_ok=True)


def _as_switched(repo: Path, entries: list[list]) -> set[str]:
    """Paths that hold exactly what the switch wrote there, by git's own comparison.

    A throwaway index holds the tip's entries of these paths; refreshing it hashes each
    file through the repository's filters (eol and autocrlf rules included, as `git status`
    would), and `diff-files` then names the ones that differ.
    """
    wanted = [e for e in entries if e[3] not in (0, GITLINK) and os.path.lexists(repo / e[0])]
    if not wanted:
        return set()
    with tempfile.TemporaryDirectory(prefix="migrate-rollback-") as tmp:
        env = dict(os.environ, GIT_INDEX_FILE=str(Path(tmp) / "index"))
        info = b"".join(
            b"%o %s\t%s\0" % (e[3], e[4].encode(), e[0].encode("utf-8", "surrogateescape"))
            for e in wanted
        )
        run_git(repo, "update-index", "-z", "--index-info", input=info, env=env)
        run_git(repo, "update-index", "-q", "--refresh", env=env, check=False)  # hash them
        out = run_git(repo, "diff-files", "-z", "--name-only", env=env)
    differ = {p.decode("utf-8", "surrogateescape") for p in out.split(b"\0") if p}
    return {e[0] for e in wanted} - differ


def _put(full: Path, backup: list, state: Path) -> None:
    """Put an original back in place (atomically: link or copy to a temp name, rename)."""
    full.parent.mkdir(parents=True, exist_ok=True)
    tmp = full.with_name(full.name + ".migrate-restore")
    tmp.unlink(missing_ok=True)
    try:
        if backup[0] == "link":
            os.symlink(backup[1], tmp)
        else:
            src = state / "files" / backup[1]
            try:
                os.link(src, tmp)
            except OSError as exc:
                if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EACCES, errno.EROFS):
                    raise
                shutil.copy2(src, tmp)
                os.chmod(tmp, backup[2] & 0o7777)
        if full.is_dir() and not full.is_symlink():
            os.rmdir(full)  # the switch made a directory here; emptied above
        os.replace(tmp, full)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def _same_original(full: Path, backup: list, state: Path) -> bool:
    st = full.lstat()
    if backup[0] == "link":
        return stat.S_ISLNK(st.st_mode) and os.readlink(full) == backup[1]
    if st.st_ino == backup[5]:
        return True  # the very inode: the switch never replaced it
    src = state / "files" / backup[1]
    return (
        stat.S_ISREG(st.st_mode)
        and st.st_mode == backup[2]
        and st.st_size == backup[3]
        and full.read_bytes() == src.read_bytes()
    )


def _still_renamed(path: Path, backup: list) -> bool:
    """Is `path` still the file the switch renamed there (same inode, size and mtime;
    the same target for a link)?"""
    st = path.lstat()
    if backup[0] == "link":
        return stat.S_ISLNK(st.st_mode) and os.readlink(path) == backup[1]
    return (st.st_ino, st.st_size, st.st_mtime_ns) == (backup[5], backup[3], backup[4])


def _renamed_whole(repo: Path, j: Journal) -> list[TreeMove]:
    """The journal's directory renames whose new directory is there (renamed, not yet
    back), with their files read again from the base's tree objects."""
    out = []
    for old, new, tree in j.dir_renames:
        if os.path.lexists(repo / new):
            out.append(TreeMove(old, new, tree, tree_files(repo, tree) or []))
    return out


def _undo_directory_renames(
    repo: Path, j: Journal, moves: list[TreeMove], report: RollbackReport
) -> None:
    """Rename each whole directory back when it holds exactly its files, each as the
    switch left it (by content, through git's filters: `_as_switched`). Otherwise file by
    file: each one as the switch left it goes back, a changed one stays where the user has
    it and is named."""
    top = os.fspath(repo)
    for m in moves:
        pairs = m.pairs()
        ours = _as_switched(
            repo,
            [
                [n, mode, sha, mode, sha]
                for (_o, n), (_r, mode, sha) in zip(pairs, m.files, strict=True)
            ],
        )
        if (
            not os.path.lexists(repo / m.old)
            and len(ours) == len(pairs)
            and _holds_exactly(top, m.new, m)
        ):
            try:
                _make_dirs(top, m.old.rpartition("/")[0], j.dir_modes)
                os.rename(repo / m.new, repo / m.old)
                continue
            except OSError:
                pass  # file by file, which reports what fails
        for old, new in pairs:
            if not os.path.lexists(repo / new) or os.path.lexists(repo / old):
                continue
            if new not in ours:
                report.left.append(f"{new}: changed while apply ran; left as you have it")
                report.left.append(f"{old}: not restored (its content is at {new})")
                continue
            try:
                _make_dirs(top, old.rpartition("/")[0], j.dir_modes)
                os.rename(repo / new, repo / old)
            except OSError as exc:
                report.failed.append(
                    f"{old}: could not restore ({exc.strerror or exc}); run: mv {new!r} {old!r}"
                )


def _undo_renames(repo: Path, j: Journal, report: RollbackReport) -> set[str]:
    """Rename each pure move back if its file is still the one the switch renamed (same
    inode, size and mtime; same target for a link); the old paths settled here."""
    backups = {e[0]: e[5] for e in j.entries}
    settled: set[str] = set()
    for old, new in j.renames:
        src, dst, backup = repo / new, repo / old, backups.get(old)
        if not backup or not os.path.lexists(src) or os.path.lexists(dst):
            continue  # not renamed yet (or already back): the originals step sees to it
        settled.add(old)
        if not _still_renamed(src, backup):
            report.left.append(f"{new}: changed while apply ran; left as you have it")
            report.left.append(f"{old}: not restored (its content is at {new})")
            continue
        try:
            dst.parent.mkdir(parents=True, exist_ok=True)
            os.rename(src, dst)
        except OSError as exc:
            report.failed.append(
                f"{old}: could not restore ({exc.strerror or exc}); run: mv {new!r} {old!r}"
            )
    return settled


def _undo_submodules(repo: Path, j: Journal, report: RollbackReport) -> None:
    """Rename each moved submodule's checkout back and re-tie it to its git dir as it was
    (its `.git` file's bytes and `core.worktree` as recorded)."""
    for rec in j.submodules:
        old, new = rec[0], rec[1]
        try:
            if os.path.lexists(repo / new) and not os.path.lexists(repo / old):
                (repo / old).parent.mkdir(parents=True, exist_ok=True)
                os.rename(repo / new, repo / old)
            _tie_submodule(repo, rec, old)
        except (OSError, GitError) as exc:
            why = getattr(exc, "strerror", None) or exc
            report.failed.append(
                f"submodule {old}: could not restore ({why}); run: mv {new!r} {old!r} "
                f"&& git submodule absorbgitdirs {old!r}"
            )


def _restore_files(repo: Path, state: Path, j: Journal, report: RollbackReport) -> None:
    entries = j.entries
    ours = _as_switched(repo, entries)
    whole = _renamed_whole(repo, j)
    _put_back_carried(repo, state, j, whole, report)
    _undo_directory_renames(repo, j, whole, report)
    settled = _undo_renames(repo, j, report)
    _undo_submodules(repo, j, report)
    targets = {new for _old, new in j.renames} | {rec[1] for rec in j.submodules}

    def is_ours(e) -> bool:
        """Does the path hold exactly what the switch wrote there?"""
        return e[0] in ours

    for e in entries:  # first what the switch added: only files that are still ours
        path, base_mode, tip_mode = e[0], e[1], e[3]
        full = repo / path
        if base_mode or not tip_mode or path in targets or not os.path.lexists(full):
            continue
        try:
            if is_ours(e):
                full.unlink()
            else:
                report.left.append(f"{path}: changed or created by someone else while apply ran")
        except OSError as exc:
            report.failed.append(f"{path}: could not remove ({exc.strerror}); remove it by hand")
    for d in j.new_dirs:
        with contextlib.suppress(OSError):
            os.rmdir(repo / d)  # only when empty: never a file we did not create
    known = {e[0] for e in entries} | {n for m in whole for _o, n in m.pairs()}
    report.left += _strangers(repo, j.new_dirs, known)
    for e in entries:  # then the originals, byte for byte, mode for mode
        path, base_mode, _bsha, tip_mode, _tsha, backup = e
        if not base_mode or not backup or path in settled:
            continue
        full = repo / path
        try:
            if os.path.lexists(full):
                if _same_original(full, backup, state):
                    continue
                made_dir = full.is_dir() and not full.is_symlink()  # emptied above
                if (not tip_mode or not is_ours(e)) and not made_dir:
                    report.left.append(f"{path}: changed while apply ran; left as you have it")
                    continue
            _put(full, backup, state)
        except OSError as exc:
            how = (
                f"ln -sfn {backup[1]!r} {path!r}"
                if backup[0] == "link"
                else f"cp -p {state / 'files' / backup[1]} {path!r}"
            )
            report.failed.append(f"{path}: could not restore ({exc.strerror or exc}); run: {how}")
    for d, mode in sorted(j.dir_modes.items()):
        with contextlib.suppress(OSError):
            if (repo / d).is_dir() and (repo / d).stat().st_mode & 0o7777 != mode:
                os.chmod(repo / d, mode)


def _strangers(repo: Path, new_dirs: list[str], known: set[str]) -> list[str]:
    """What keeps a directory the switch made from going: entries none of the switch's
    paths (someone made them there while apply ran), each left where it is."""
    made, out = set(new_dirs), []
    for d in sorted(made):
        with contextlib.suppress(OSError), os.scandir(repo / d) as it:
            for entry in it:
                sub = f"{d}/{entry.name}"
                if sub not in known and sub not in made:
                    out.append(f"{sub}: made by someone else while apply ran; left where it is")
    return sorted(out)


def rollback(repo: Path, j: Journal, hook=None) -> RollbackReport:
    """Undo a switch from its journal; every step runs even if another failed."""
    hook = hook or (lambda point: None)
    state = state_dir(repo)
    report = RollbackReport()
    moved: list[str] = []  # what the refs step found moved by someone else

    def refs() -> None:
        moved.extend(_restore_refs(repo, j))
        report.left.extend(moved)

    def index() -> None:
        if moved:  # someone committed meanwhile: the index is theirs, not ours to undo
            report.left.append("the index: left as it is (the branch was moved meanwhile)")
        else:
            _restore_index(repo, state, j)

    with signals_held():
        _wait_for_index_lock(repo)
        steps = [
            ("refs", refs, "git update-ref"),
            ("index", index, f"cp {state / 'index'} .git/index"),
            ("files", lambda: _restore_files(repo, state, j, report), "migrate recover"),
        ]
        for name, step, how in steps:
            try:
                hook(f"rollback-{name}")
                step()
            except Exception as exc:
                why = getattr(exc, "strerror", None) or exc
                report.failed.append(f"{name}: could not restore ({why}); retry: {how}")
        if report.complete:
            shutil.rmtree(state, ignore_errors=True)
        else:
            j.failures = report.failed
            with contextlib.suppress(OSError):
                j.save(state)
                j.set_phase(state, "rollback-incomplete")
    return report
