"""The one finding type: what rules, verify and the report say is wrong, pinned to a place.

A rule (`KO502`) and a verify check (`old-names`) report the same thing, one problem at
`file:line:col` with a message, the evidence behind it and the fix when one is known, so
they share this type; the report renders it without translating.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from migrate.errors import Pos

SEVERITIES = ("error", "warning")

# A stage's outcome (verify, each of its checks): one typed set for every stage, so a
# result that could not be checked stays its own state from the check to the report and
# is never read as a failed (or a passed) migration.
PASS, FAIL, SKIP, COULD_NOT_RUN = "PASS", "FAIL", "SKIP", "COULD-NOT-RUN"
OUTCOMES = (PASS, FAIL, SKIP, COULD_NOT_RUN)
EXIT_CODES = {PASS: 0, FAIL: 1, COULD_NOT_RUN: 3}  # 2 is bad input: no result exists


def overall(outcomes) -> str:
    """FAIL when any failed; else COULD-NOT-RUN when any could not run; else PASS."""
    seen = set(outcomes)
    return FAIL if FAIL in seen else COULD_NOT_RUN if COULD_NOT_RUN in seen else PASS


@dataclass(frozen=True)
class Finding:
    """One problem. `check` is the rule id or the verify check name; `name` is the rule's
    readable name (rules only); `line` 0 means the whole file, `file` "" the whole run."""

    file: str
    line: int
    check: str
    message: str
    fix: str = ""
    severity: str = "error"  # error | warning
    col: int = 0
    evidence: str = ""
    name: str = ""

    @property
    def pos(self) -> Pos:
        return Pos(self.file, self.line, self.col)

    def sort_key(self) -> tuple:
        return (self.file, self.line, self.col, self.check, self.message)

    def to_dict(self) -> dict:
        """The JSON form every command prints (`check --json`, `verify --json`)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> Finding:
        """The inverse of `to_dict` (for results read back from a stage's `--json`)."""
        return cls(
            file=d["file"],
            line=int(d["line"]),
            check=d["check"],
            message=d["message"],
            fix=d.get("fix", ""),
            severity=d.get("severity", "error"),
            col=int(d.get("col", 0)),
            evidence=d.get("evidence", ""),
            name=d.get("name", ""),
        )

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        text = f"{where}: {self.message}" if where else self.message
        return text + (f" ({self.fix})" if self.fix else "")


@dataclass
class CheckResult:
    """One check's outcome with its findings: what verify's static checks return and what
    the report shows of them (one record from the check to the report)."""

    name: str
    status: str  # PASS | FAIL | SKIP | COULD-NOT-RUN
    findings: list[Finding] = field(default_factory=list)
    summary: str = ""  # the check's own one-line summary; for COULD-NOT-RUN, why

    @classmethod
    def of(cls, name: str, findings: list[Finding], summary: str = "") -> CheckResult:
        return cls(name, FAIL if findings else PASS, findings, summary)

    @classmethod
    def judged(cls, name: str, findings: list[Finding], summary: str = "") -> CheckResult:
        """FAIL when any finding is an error; warnings (what BASE had already) pass."""
        status = FAIL if any(f.severity == "error" for f in findings) else PASS
        return cls(name, status, findings, summary)
