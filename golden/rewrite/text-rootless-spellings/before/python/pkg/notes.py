# Kernels live in lora/triton_ops/sgmv.py for now.
DOC = "see lora.triton_ops.bgmv"
FULL = "pkg.lora.triton_ops.bgmv"
lora = None
X = lora and lora.triton_ops.bgmv
