"""Shared helpers and torch reference oracles for kernel tests."""
