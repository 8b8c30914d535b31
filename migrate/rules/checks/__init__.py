"""One module per rule; each defines `RULE`. The module docstring is the rule's doc."""
