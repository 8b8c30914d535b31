# Tuned configs: python/pkg/ops/lora/configs/ (also pkg/ops/lora/x).
X = 1
