"""A package re-exporting what its submodule defines."""

from . import mod as mod
from .newmod import func, helper  # the public names

__all__ = ["func", "helper"]
