"""Cake adapters over FlashInfer kernels (`KernelBackend.FLASHINFER`).

A backend, not a group: ops are registered in their logical groups with targets into
this package. FlashInfer is optional; adapters fall back to torch without it.
"""
