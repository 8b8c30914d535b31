"""Test inventory, test splitting and CI budget apportioning."""
