"""Prove a migration mechanical: reproduce its step commits, then check HEAD statically."""

from migrate.verify.reproduce import reproduce
from migrate.verify.result import CheckResult, CommitCheck, Finding, VerifyResult
from migrate.verify.run import CHECK_NAMES, verify

__all__ = [
    "CHECK_NAMES",
    "CheckResult",
    "CommitCheck",
    "Finding",
    "VerifyResult",
    "reproduce",
    "verify",
]
