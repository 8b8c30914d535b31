// RMSNorm / fused add + RMSNorm for the JIT path of sglang.jit_kernel.norm.
// Compiled on first use by load_jit("norm", cuda_files=["norm.cuh"]).
#pragma once
#include <cuda_runtime.h>
#include <torch/extension.h>

template <typename T>
__global__ void rmsnorm_kernel(const T* __restrict__ x, const T* __restrict__ w,
                               T* __restrict__ out, int hidden, float eps) {
  extern __shared__ float partial[];
  const T* row = x + blockIdx.x * hidden;
  float acc = 0.f;
  for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
    float v = static_cast<float>(row[i]);
    acc += v * v;
  }
  partial[threadIdx.x] = acc;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  const float inv = rsqrtf(partial[0] / hidden + eps);
  for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
    out[blockIdx.x * hidden + i] =
        static_cast<T>(static_cast<float>(row[i]) * inv * static_cast<float>(w[i]));
  }
}

torch::Tensor rmsnorm(torch::Tensor x, torch::Tensor w, double eps) {
  auto out = torch::empty_like(x);
  const int rows = x.numel() / x.size(-1);
  const int hidden = x.size(-1);
  const int threads = 256;
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, x.scalar_type(), "rmsnorm", [&] {
    rmsnorm_kernel<scalar_t><<<rows, threads, threads * sizeof(float)>>>(
        x.data_ptr<scalar_t>(), w.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), hidden,
        static_cast<float>(eps));
  });
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("rmsnorm", &rmsnorm); }
