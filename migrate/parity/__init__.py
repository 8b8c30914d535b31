"""Numerical parity of moved Triton kernels: rerun their tests at BASE and HEAD, compare bits.

discover (what moved, what to record, which tests) -> runner + recorder (two pytest
subprocesses) -> compare (pair calls, bitwise) -> report.
"""

from migrate.parity.check import run_parity
from migrate.parity.model import ParityResult

__all__ = ["ParityResult", "run_parity"]
