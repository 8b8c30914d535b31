"""Contracts of external kernel plugins, by `<hardware>/<model>/` (`KernelBackend.PLUGIN`).

Only the kernel side lives here (spec, capability declarations, thin wrappers);
nothing in this package imports `sglang.srt`. The runtime binding is in
`sglang.srt.kernel_plugins.<hardware>.binding`.
"""
