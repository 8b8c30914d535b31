"""Human output of a VerifyResult: PASS/FAIL per commit (with the residual) and per check."""

from __future__ import annotations

from migrate.verify.result import FAIL, NOT_RUN, VerifyResult


def render(result: VerifyResult, max_findings: int = 50) -> str:
    lines = [f"verify {result.base[:12]}..{result.head[:12]}"]
    if not result.commits:
        lines.append("no Migrate-Step commits in the range")
    for c in result.commits:
        lines.append(f"{c.status} {c.sha[:12]} {c.step}" + (f": {c.message}" if c.message else ""))
        if c.status == FAIL and c.residual_diff:
            lines += ["  " + d for d in c.residual_diff.rstrip("\n").split("\n")]
    for chk in result.static_checks:
        tail = f" ({chk.summary})" if chk.summary else ""
        status = "could not run" if chk.status == NOT_RUN else chk.status
        lines.append(f"{status} check {chk.name}{tail}")
        for f in chk.findings[:max_findings]:
            lines.append(f"  {f.severity}: {f}")
        if len(chk.findings) > max_findings:
            lines.append(f"  ... and {len(chk.findings) - max_findings} more")
    lines.append(f"verify: {result.status}")
    return "\n".join(lines)
