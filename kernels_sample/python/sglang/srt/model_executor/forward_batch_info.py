"""Per-batch attention metadata derived from the scheduler's request state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import torch

from sglang.jit_kernel.page_table import compute_cu_seqlens, create_page_table

if TYPE_CHECKING:
    import sglang.jit_kernel.rope
    from sglang.jit_kernel.rope import RotaryCosSinCache


@dataclass
class ForwardBatch:
    req_pool_indices: torch.Tensor
    seq_lens: torch.Tensor
    positions: torch.Tensor
    rope_cache: sglang.jit_kernel.rope.RotaryCosSinCache | None = None
    cu_seqlens: torch.Tensor | None = None
    page_table: torch.Tensor | None = None

    def init_attention_metadata(self, req_to_token: torch.Tensor, page_size: int) -> None:
        self.cu_seqlens = compute_cu_seqlens(self.seq_lens)
        max_pages = -(-int(self.seq_lens.max()) // page_size)
        self.page_table = create_page_table(req_to_token, self.req_pool_indices, self.seq_lens, page_size, max_pages)

    def get_rope_cache(self) -> RotaryCosSinCache:
        if self.rope_cache is None:
            raise RuntimeError("the model runner did not attach a rope cache")
        return self.rope_cache
