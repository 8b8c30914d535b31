"""GEMM kernels (scaled matmul) and their tuning data (`scaled_mm.py`, `configs/`)."""
