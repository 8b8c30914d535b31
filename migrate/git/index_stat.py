"""Carry the index's stat data over to renamed paths, as `git mv` does.

`read-tree -m base tip` gives every path new at the tip an index entry without stat
data, so the refresh after the switch reads and hashes each renamed file again (30,000
of them for a big data directory). A pure rename keeps the file's blob, mode and inode;
`git mv` copies the old entry's stat data to the new name. `carry_stat` does the same on
the index `read-tree` wrote: for each [old, new] rename whose new entry has the old
entry's blob and mode, the new entry takes the old one's stat fields. It is only a cache:
the refresh that follows still `lstat`s every path and hashes any whose stat differs
(a file renamed on its own has a new ctime), so a wrong carry costs a hash, never a
wrong status. Entries that were racily clean in the old index (changed in the second the
index was written or later: git's rule, with the ctime too) are not carried.

Only the plain formats are patched: index versions 2 and 3, SHA-1 or SHA-256 entries,
no split index, sparse index or fsmonitor data; anything else is left to the refresh.
The index is rewritten under git's `index.lock` protocol (skipped when it is taken).
"""

from __future__ import annotations

import bisect
import contextlib
import hashlib
import os
import struct

_STAT = 40  # ctime s/ns, mtime s/ns, dev, ino, mode, uid, gid, size: ten 32-bit fields
_SKIP_EXTENSIONS = (b"link", b"sdir", b"FSMN")  # split / sparse index, fsmonitor


def _entries(data: bytes, hash_len: int) -> tuple[dict[bytes, int], int] | None:
    """{name: offset} of each stage-0 entry, and the offset after the last entry; None
    for a format this module does not patch."""
    if data[:4] != b"DIRC" or int.from_bytes(data[4:8], "big") not in (2, 3):
        return None
    out: dict[bytes, int] = {}
    pos, fixed, find = 12, _STAT + hash_len, data.index
    for _ in range(int.from_bytes(data[8:12], "big")):
        at = pos + fixed
        flags = data[at] << 8 | data[at + 1]
        at += 4 if flags & 0x4000 else 2  # version 3: extended flags
        end = find(b"\0", at)
        if not flags & 0x3000:  # stage 0 only (a conflicted path is never renamed)
            out[data[at:end]] = pos
        pos += (end - pos + 8) & ~7  # NUL-padded to a multiple of 8
    return out, pos


def _extensions(data: bytes, pos: int, hash_len: int) -> list[bytes] | None:
    """The signatures of the extensions after the entries (None: not well formed)."""
    names, stop = [], len(data) - hash_len
    while pos + 8 <= stop:
        names.append(data[pos : pos + 4])
        pos += 8 + struct.unpack_from(">L", data, pos + 4)[0]
    return names if pos == stop else None


def carry_stat(
    index_path: str, old_index: bytes, old_mtime_ns: int, renames: list[list[str]], hash_len: int
) -> int:
    """Give each renamed path's entry in the index at `index_path` the stat data of its
    old path's entry in `old_index` (the index before the switch, last written at
    `old_mtime_ns`); how many it carried. `hash_len`: 20 (SHA-1) or 32 (SHA-256)."""
    if not renames:
        return 0
    try:
        with open(index_path, "rb") as fh:
            data = fh.read()
    except OSError:
        return 0
    new, old = _parsed(data, hash_len), _parsed(old_index, hash_len)
    if new is None or old is None:
        return 0
    out, carried = bytearray(data), 0
    racy_from = old_mtime_ns // 10**9  # git's rule, to the second: mtime >= the index's
    for o, n in renames:
        a = old.get(o.encode("utf-8", "surrogateescape"))
        b = new.get(n.encode("utf-8", "surrogateescape"))
        if a is None or b is None:
            continue
        if old_index[a + 24 : a + 28] != data[b + 24 : b + 28] or (
            old_index[a + _STAT : a + _STAT + hash_len] != data[b + _STAT : b + _STAT + hash_len]
        ):
            continue  # not the same blob and mode: nothing to carry
        stat_data = old_index[a : a + _STAT]
        ctime, mtime = int.from_bytes(stat_data[0:4], "big"), int.from_bytes(stat_data[8:12], "big")
        if max(ctime, mtime) >= racy_from or not any(stat_data[36:40]):
            continue  # racily clean in the old index, or smudged (size 0): hashed
        out[b : b + _STAT] = stat_data
        carried += 1
    if not carried:
        return 0
    if any(data[-hash_len:]):  # an all-zero trailer is `index.skipHash`: none to keep
        digest = hashlib.sha1 if hash_len == 20 else hashlib.sha256
        out[-hash_len:] = digest(bytes(out[:-hash_len])).digest()
    return carried if _replace_locked(index_path, bytes(out)) else 0


def _parsed(data: bytes, hash_len: int):
    """The entries of an index this module patches (see the module doc), else None."""
    try:
        found = _entries(data, hash_len)
        if found is None:
            return None
        names = _extensions(data, found[1], hash_len)
    except (struct.error, ValueError, IndexError):
        return None
    if names is None or any(x in _SKIP_EXTENSIONS for x in names):
        return None
    return found[0]


def _replace_locked(index_path: str, data: bytes) -> bool:
    """Write `data` as the index the way git does: through `index.lock`, renamed over."""
    lock = index_path + ".lock"
    try:
        fd = os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError:
        return False  # someone holds the index: leave it, the refresh hashes instead
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(lock, index_path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(lock)
        raise
    return True


def switched_index(
    index_path: str,
    old_index: bytes,
    old_mtime_ns: int,
    changes: list,
    renames: list[list[str]],
    whole: list,
    hash_len: int,
) -> bool:
    """Write the index a switch from base to tip leaves, as `read-tree -m base tip`
    followed by `carry_stat` would, without reading either tree: each renamed entry (a
    pure move, `renames`; or every file of a directory renamed whole, `whole`: (old dir,
    new dir, [(relative path, mode, sha)])) takes its new name with its stat data (none
    when racily clean, as `carry_stat`); each other changed path (`changes`: (path, base
    mode, base sha, tip mode, tip sha), renamed ones included) gets the tip's entry
    without stat data (removed when the tip lacks it); every other entry stays as it is.
    The cache-tree and the other optional extensions are dropped (git rebuilds them).

    False, with nothing written, when the index is not one this module patches (see the
    module doc), holds a conflict or a required extension, differs from base on a path
    the switch changes (someone staged something meanwhile: `read-tree -m` decides), or
    when the index is locked; the caller then runs `read-tree -m` and `carry_stat`."""
    try:
        parsed = _all_entries(old_index, hash_len)
    except (struct.error, ValueError, IndexError):
        return False
    if parsed is None:
        return False
    entries, pos = parsed
    names = _extensions(old_index, pos, hash_len)
    if names is None or any(not (n[:1].isupper()) for n in names):
        return False  # a required extension (split or sparse index, ...): not ours to drop
    at = {name: i for i, (name, _a, _b) in enumerate(entries)}
    enc = "utf-8"
    racy_from = old_mtime_ns // 10**9
    fixed = _STAT + hash_len
    want: dict[bytes, tuple[int, bytes] | None] = {}  # name -> tip (mode, oid); None: gone
    for path, bm, bs, tm, ts in changes:
        name = path.encode(enc, "surrogateescape")
        if not _is_base(old_index, entries, at.get(name), bm, bs, hash_len):
            return False
        want[name] = (tm, bytes.fromhex(ts)) if tm else None
    carry: dict[bytes, bytes] = {}  # new name -> old name, for the stat data
    for o, n in renames:
        carry[n.encode(enc, "surrogateescape")] = o.encode(enc, "surrogateescape")
    moved = _whole_entries(old_index, entries, at, want, whole, racy_from, hash_len)
    if moved is None:
        return False
    out: list[tuple[bytes, bytes]] = []
    for name, a, b in entries:
        if name in want:
            continue
        raw = old_index[a:b]
        if int.from_bytes(raw[8:12], "big") >= racy_from:  # racily clean: have it hashed
            raw = raw[:36] + b"\0\0\0\0" + raw[40:]
        out.append((name, raw))
    for name, tip in want.items():
        if tip is None:
            continue
        mode, oid = tip
        stat_data = b"\0" * 24 + mode.to_bytes(4, "big") + b"\0" * 12
        old = carry.get(name)
        if old is not None:
            i = at[old]
            a = entries[i][1]
            found = old_index[a : a + _STAT]
            ctime = int.from_bytes(found[0:4], "big")
            mtime = int.from_bytes(found[8:12], "big")
            same = old_index[a + 24 : a + 28] == stat_data[24:28]
            same = same and old_index[a + _STAT : a + fixed] == oid
            if same and max(ctime, mtime) < racy_from and any(found[36:40]):
                stat_data = found
        flags = min(len(name), 0xFFF).to_bytes(2, "big")
        body = stat_data + oid + flags + name
        out.append((name, body + b"\0" * (8 - (len(body) % 8))))
    out += moved
    out.sort()  # names are unique: the entries' bytes are never compared
    head = b"DIRC" + old_index[4:8] + len(out).to_bytes(4, "big")
    data = head + b"".join(raw for _n, raw in out)
    if any(old_index[-hash_len:]):  # an all-zero trailer is `index.skipHash`: none to keep
        digest = hashlib.sha1 if hash_len == 20 else hashlib.sha256
        data += digest(data).digest()
    else:
        data += b"\0" * hash_len
    return _replace_locked(index_path, data)


def _whole_entries(old_index: bytes, entries, at: dict, want: dict, whole, racy_from, hash_len):
    """The new entries (name, bytes) of every file of the directories renamed whole, each
    with its old entry's stat data unless racily clean or smudged; their old names are
    marked gone in `want`. None when an old entry is not base's or the index holds one
    the tree lacks, under the old or the new directory (staged meanwhile)."""
    enc, fixed = "utf-8", _STAT + hash_len
    names = [name for name, _a, _b in entries]  # sorted: the index's order
    moved: list[tuple[bytes, bytes]] = []
    modes: dict[int, bytes] = {}
    for old_dir, new_dir, files in whole:
        ob, nb = (
            (old_dir + "/").encode(enc, "surrogateescape"),
            (new_dir + "/").encode(enc, "surrogateescape"),
        )
        for rel, mode, sha in files:
            r = rel.encode(enc, "surrogateescape")
            i, oid = at.get(ob + r), bytes.fromhex(sha)
            mode_bytes = modes.get(mode) or modes.setdefault(mode, mode.to_bytes(4, "big"))
            if i is None:
                return None  # not base's: the index lacks it
            a = entries[i][1]
            if old_index[a + 24 : a + 28] != mode_bytes or old_index[a + _STAT : a + fixed] != oid:
                return None  # not base's entry
            new = nb + r
            if new in at or new in want:
                return None  # staged at the new path meanwhile
            want[ob + r] = None
            found = old_index[a : a + _STAT]  # carried unless racily clean or smudged
            ctime, mtime = int.from_bytes(found[0:4], "big"), int.from_bytes(found[8:12], "big")
            if max(ctime, mtime) >= racy_from or not any(found[36:40]):
                found = b"\0" * 24 + mode_bytes + b"\0" * 12
            body = found + oid + min(len(new), 0xFFF).to_bytes(2, "big") + new
            moved.append((new, body + b"\0" * (8 - (len(body) % 8))))
        # every entry under `old` must be one of the tree's
        if bisect.bisect_left(names, ob[:-1] + b"0") - bisect.bisect_left(names, ob) != len(files):
            return None
    return moved


def _all_entries(data: bytes, hash_len: int) -> tuple[list[tuple[bytes, int, int]], int] | None:
    """[(name, start, end)] of every entry, and the offset after the last; None for a
    format this module does not patch or an index with a conflicted (staged) entry."""
    if data[:4] != b"DIRC" or int.from_bytes(data[4:8], "big") not in (2, 3):
        return None
    out = []
    pos, fixed, find = 12, _STAT + hash_len, data.index
    for _ in range(int.from_bytes(data[8:12], "big")):
        at = pos + fixed
        flags = data[at] << 8 | data[at + 1]
        if flags & 0x3000:
            return None  # a conflict: `read-tree -m` says what it makes of it
        at += 4 if flags & 0x4000 else 2
        end = find(b"\0", at)
        nxt = pos + ((end - pos + 8) & ~7)
        out.append((data[at:end], pos, nxt))
        pos = nxt
    return out, pos


def _is_base(data: bytes, entries, i: int | None, mode: int, sha: str, hash_len: int) -> bool:
    """Whether the index entry `i` (None: none) is base's (`mode` 0: base has none)."""
    if i is None:
        return not mode
    if not mode:
        return False
    a = entries[i][1]
    return int.from_bytes(data[a + 24 : a + 28], "big") == mode and data[
        a + _STAT : a + _STAT + hash_len
    ] == bytes.fromhex(sha)
