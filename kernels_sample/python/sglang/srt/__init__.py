"""SGLang runtime (only the callers of kernels are kept in this sample)."""
