"""A package re-exporting what its submodule defines."""

from .mod import func, helper  # the public names

__all__ = ["func", "helper"]
