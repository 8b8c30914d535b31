"""Apportion a registration's est_time among split outputs: exact integer arithmetic.

CI partitions a suite into shards by est_time, so a split must neither duplicate the
budget into every part nor lose any of it: the per-suite sum is preserved exactly, by
largest remainder, and no output is left with 0 s (a 0 s file is scheduled as free).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path, PurePosixPath

UNIT_LIMIT_S = 60  # a unit-stage test file over this is flagged


def apportion(total: int, weights: list[float]) -> list[int]:
    """Split integer `total` into integers proportional to `weights`, summing to `total`.

    Largest remainder (Hamilton); ties go to the heavier weight, then the earlier
    output. Then every output with a positive weight that got 0 takes 1 s from the
    largest share (when `total` allows it), so no part is scheduled as free.
    """
    n = len(weights)
    if n == 0:
        return []
    ws = [Fraction(w).limit_denominator(10**9) if w > 0 else Fraction(0) for w in weights]
    wsum = sum(ws)
    if wsum == 0:
        ws, wsum = [Fraction(1)] * n, Fraction(n)
    exact = [Fraction(total) * w / wsum for w in ws]
    shares = [int(q) for q in exact]  # floor: all are >= 0
    left = total - sum(shares)
    order = sorted(range(n), key=lambda i: (-(exact[i] - shares[i]), -ws[i], i))
    for i in order[:left]:
        shares[i] += 1
    for i in range(n):
        if shares[i] == 0 and ws[i] > 0:
            donor = max(range(n), key=lambda j: (shares[j], -j))
            if shares[donor] > 1:
                shares[donor] -= 1
                shares[i] = 1
    return shares


def load_junit_durations(source: str | Path) -> dict[tuple[str, str], float]:
    """(classname, name) -> seconds from a JUnit XML file (pytest's `--junitxml`)."""
    text = (
        Path(source).read_text(encoding="utf-8")
        if not str(source).lstrip().startswith("<")
        else str(source)
    )
    root = ET.fromstring(text)
    out: dict[tuple[str, str], float] = {}
    for tc in root.iter("testcase"):
        try:
            seconds = float(tc.get("time", "0") or 0)
        except ValueError:
            seconds = 0.0
        key = (tc.get("classname", ""), tc.get("name", ""))
        out[key] = out.get(key, 0.0) + seconds
    return out


def durations_for_file(junit: dict[tuple[str, str], float], path: str) -> dict[str, float]:
    """Case name (`Class::test[id]` or `test[id]`) -> seconds, for the file at `path`.

    JUnit classnames are `<dotted module>[.<Class>]`, where the dotted module depends
    on where pytest ran; match on the file's stem so both spellings work.
    """
    short = PurePosixPath(path).stem
    out: dict[str, float] = {}
    for (classname, name), seconds in junit.items():
        parts = classname.split(".")
        if parts[-1] == short:
            key = name
        elif len(parts) >= 2 and parts[-2] == short:
            key = f"{parts[-1]}::{name}"
        else:
            continue
        out[key] = out.get(key, 0.0) + seconds
    return out


def is_unit_stage(stage: str | None, suite: str | None) -> bool:
    return any(s and "unit" in s for s in (stage, suite))
