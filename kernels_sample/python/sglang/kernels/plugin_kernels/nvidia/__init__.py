"""sgl-nvidia-mega kernel contracts for NVIDIA GPUs, by model."""
