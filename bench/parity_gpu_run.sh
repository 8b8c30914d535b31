#!/usr/bin/env bash
# On the GPU host: run the specs prepared by bench/parity_gpu_bundle.sh with compiled Triton
# kernels on CUDA. Writes <name>.txt / <name>.json under ${OUT:-.}.
set -uo pipefail
OUT=${OUT:-.}
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
  python3 -c 'import sys, torch, triton, pytest; print("python", sys.version.split()[0], "torch", torch.__version__, "cuda", torch.version.cuda, "triton", triton.__version__, "pytest", pytest.__version__, "gpu", torch.cuda.get_device_name(0))'
} 2>&1 | tee "$OUT/env.txt"
# The sample's tests create CPU tensors (they target the interpreter): --default-device cuda
# puts them on the GPU so the compiled kernels run there.
for name in fixture_pure fixture_dirty sample; do
  d=.parity_gpu/$name
  extra=(); [ "$name" = sample ] && extra=(--default-device cuda)
  echo "=== $name"
  SECONDS=0
  python3 -m migrate.parity.offline "$d/spec.json" "$d/base" "$d/head" --device cuda \
    "${extra[@]}" --json "$OUT/$name.json" 2>&1 | tee "$OUT/$name.txt"
  echo "$name wall ${SECONDS}s"
done
