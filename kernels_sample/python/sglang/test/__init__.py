"""Test utilities shipped with sglang."""
