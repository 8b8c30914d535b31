"""migrate: mechanical, verifiable kernel migrations for SGLang-style monorepos.

The package reads as the pipeline: plan -> index -> relocate -> rewrite -> git_steps
-> verify -> report.
"""

__version__ = "0.1.0"
