"""Verify results as data: per-commit reproduction and static checks, each with findings.

`VerifyResult.to_dict()` is the `--json` output and what the report reads.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

PASS, FAIL, SKIP = "PASS", "FAIL", "SKIP"


@dataclass(frozen=True)
class Finding:
    file: str
    line: int
    check: str
    message: str
    fix: str = ""
    severity: str = "error"

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.message}" + (f" ({self.fix})" if self.fix else "")


@dataclass
class CheckResult:
    name: str
    status: str  # PASS | FAIL | SKIP
    findings: list[Finding] = field(default_factory=list)
    summary: str = ""

    @classmethod
    def of(cls, name: str, findings: list[Finding], summary: str = "") -> CheckResult:
        return cls(name, FAIL if findings else PASS, findings, summary)


@dataclass
class CommitCheck:
    """One `Migrate-Step` commit reproduced from its parent."""

    sha: str
    step: str
    plan: str
    status: str  # PASS | FAIL
    residual_diff: str = ""  # what the commit holds beyond the reproduction
    message: str = ""


@dataclass
class VerifyResult:
    base: str
    head: str
    commits: list[CommitCheck] = field(default_factory=list)
    static_checks: list[CheckResult] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(c.status != FAIL for c in self.commits) and all(
            c.status != FAIL for c in self.static_checks
        )

    def to_dict(self) -> dict:
        d = asdict(self)
        d["status"] = PASS if self.ok else FAIL
        return d
