"""sgl-nvidia-mega contract for DeepSeek-V3 (enabled by --enable-nvidia-megakernel)."""
