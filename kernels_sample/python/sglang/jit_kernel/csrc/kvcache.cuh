// Scatter new K/V rows into the paged KV cache: cache[slot[i]] = kv[i].
// Compiled on first use by load_jit("kvcache", cuda_files=["kvcache.cuh"]).
#pragma once
#include <cuda_runtime.h>
#include <torch/extension.h>

template <typename T>
__global__ void store_kv_kernel(const T* __restrict__ k, const T* __restrict__ v,
                                T* __restrict__ k_cache, T* __restrict__ v_cache,
                                const int64_t* __restrict__ slots, int row_elems) {
  const int64_t slot = slots[blockIdx.x];
  if (slot < 0) return;  // padded token
  for (int i = threadIdx.x; i < row_elems; i += blockDim.x) {
    k_cache[slot * row_elems + i] = k[blockIdx.x * row_elems + i];
    v_cache[slot * row_elems + i] = v[blockIdx.x * row_elems + i];
  }
}

void store_kv_cache(torch::Tensor k, torch::Tensor v, torch::Tensor k_cache,
                    torch::Tensor v_cache, torch::Tensor slots) {
  const int tokens = k.size(0);
  const int row_elems = k.numel() / tokens;
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, k.scalar_type(), "store_kv", [&] {
    store_kv_kernel<scalar_t><<<tokens, 128>>>(
        k.data_ptr<scalar_t>(), v.data_ptr<scalar_t>(), k_cache.data_ptr<scalar_t>(),
        v_cache.data_ptr<scalar_t>(), slots.data_ptr<int64_t>(), row_elems);
  });
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("store_kv_cache", &store_kv_cache); }
