"""ParityResult and its parts: plain dataclasses, so `--json` is just `asdict`.

What keeps a move from being a proven no-op is a `migrate.findings.Finding` (the one
finding type of rules, verify and the report): an error fails parity, a warning does not.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from migrate.findings import Finding

SIDES = ("base", "head")
# the JSON's schema name; bump on incompatible changes (2: `findings` replaces the strings
# `problems` and `warnings`)
FORMAT = "migrate.parity/2"


def problem(check: str, message: str, file: str = "") -> Finding:
    """A finding that fails parity (`check` names what it judged: imports, calls, ...)."""
    return Finding(file, 0, check, message)


def warning(check: str, message: str, file: str = "") -> Finding:
    """A finding a reviewer should see that does not fail parity."""
    return Finding(file, 0, check, message, severity="warning")


@dataclass
class MovedModule:
    """A moved module that defines Triton kernels or wraps them."""

    old: str  # dotted name at BASE
    new: str  # dotted name at HEAD
    old_path: str
    new_path: str
    kernels: list[str] = field(default_factory=list)  # @triton.jit functions (HEAD)
    wrappers: list[str] = field(default_factory=list)  # recorded entry points (HEAD)
    kernels_of: dict[str, list[str]] = field(default_factory=dict)  # wrapper -> kernels used
    uses_configs: bool = False  # source names a "configs" directory (tuning lookups)


@dataclass
class CallResult:
    """One paired (or unpaired) call of a wrapper."""

    op: str
    nodeid: str
    ordinal: int
    status: str  # identical | different | inputs_differ | base_only | head_only | error
    shapes: list[str] = field(default_factory=list)  # "path: dtype[shape]@device"
    devices: list[str] = field(default_factory=list)
    detail: str = ""
    max_abs: float | None = None
    max_rel: float | None = None


@dataclass
class OpResult:
    op: str  # stable id: new module:function
    old: str  # BASE module:function
    calls: int = 0
    identical: int = 0
    different: int = 0
    unpaired: int = 0
    devices: list[str] = field(default_factory=list)
    kernels: list[str] = field(default_factory=list)
    status: str = "not_called"  # identical | different | unpaired | not_called


@dataclass
class TestOutcome:
    nodeid: str  # HEAD spelling
    base: str = "absent"  # passed | failed | skipped | error | absent
    head: str = "absent"
    base_detail: str = ""
    head_detail: str = ""


@dataclass
class SideRun:
    """What one pytest subprocess did."""

    rev: str
    sha: str
    tests: list[str] = field(default_factory=list)
    returncode: int | None = None
    env: dict = field(default_factory=dict)
    import_errors: dict[str, str] = field(default_factory=dict)  # module -> error text
    configs: dict[str, list[str] | None] = field(default_factory=dict)  # op module -> files
    stderr_tail: str = ""
    seconds: float = 0.0


@dataclass
class ParityResult:
    base: SideRun
    head: SideRun
    device_requested: str
    device: str  # cpu (TRITON_INTERPRET=1) | cuda
    default_device: str | None = None  # where device-less test tensors were created
    modules: list[MovedModule] = field(default_factory=list)
    ops: list[OpResult] = field(default_factory=list)
    calls: list[CallResult] = field(default_factory=list)
    tests: list[TestOutcome] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)

    @property
    def problems(self) -> list[Finding]:
        """The findings that fail parity."""
        return [f for f in self.findings if f.severity == "error"]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severity != "error"]

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict:
        d = asdict(self)
        d["format"] = FORMAT
        d["ok"] = self.ok
        return d
