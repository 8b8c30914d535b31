"""SGLang (miniature sample checkout used by the `migrate` tool's tests).

Only the pieces that kernel migrations touch are present: the legacy
`sglang.jit_kernel` package, the `sglang.kernels` namespace, a few `srt` callers
and the test helpers.
"""

__version__ = "0.5.15.dev0"
