# Tuned configs: python/pkg/lora/triton_ops/configs/ (also pkg/lora/triton_ops/x).
X = 1
