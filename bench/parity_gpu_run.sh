#!/usr/bin/env bash
# The GPU run of issue 17, on the device machine (repository root, `.whl` carried; see
# bench/parity_gpu_prepare.sh) or anywhere with torch + triton + pytest + git:
#   1. the sample's full test suite, natively (no TRITON_INTERPRET), at BASE;
#   2. `migrate apply plans/sample-jit-to-ops.yaml`, the suite again at HEAD;
#   3. `migrate parity BASE..HEAD --plan ... --device $PARITY_DEVICE` on the applied sample;
#   4. two mutants on top of HEAD, each one changed constant in one moved kernel, which
#      parity must report as different;
#   5. $OUT/result.md: device, driver, versions, what ran on the GPU and what did not;
#      every log and report in $OUT/raw.tar.gz.
# PARITY_DEVICE=cpu TRITON_INTERPRET=1 runs the same steps on a CPU host (a dry run).
set -uo pipefail
here=$(pwd)
OUT=${OUT:-$here/.parity_gpu_out}
DEV=${PARITY_DEVICE:-cuda}
RAW=$OUT/raw  # packed into raw.tar.gz at the end: the device tool returns at most 8 files
mkdir -p "$RAW"
PY=${PYTHON:-python3}
if ! "$PY" -c "import libcst, git, ruamel.yaml" 2>/dev/null; then  # the carried wheels
  "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/migrate-site .whl/*.whl || exit 2
  export PYTHONPATH=/tmp/migrate-site${PYTHONPATH:+:$PYTHONPATH}
fi
export PYTHONPATH=$here${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.invalid
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.invalid
[ "$DEV" = cuda ] && unset TRITON_INTERPRET
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1
  "$PY" -c 'import os, sys, importlib.metadata as m, torch, triton; print("python", sys.version.split()[0], "torch", torch.__version__, "cuda", torch.version.cuda, "triton", triton.__version__, "pytest", m.version("pytest"), "libcst", m.version("libcst"), "gpu", torch.cuda.get_device_name(0) if torch.cuda.is_available() else "none", "TRITON_INTERPRET=" + os.environ.get("TRITON_INTERPRET", ""))'
  git --version
} >"$RAW/env.txt" 2>&1
cat "$RAW/env.txt"

work=$(mktemp -d)/kernels_sample
cp -r kernels_sample "$work"
find "$work" -name __pycache__ -prune -exec rm -rf {} +
(cd "$work" && git init -q -b main && git add -A && git commit -qm base)
base=$(git -C "$work" rev-parse HEAD)

suite() {  # label: the sample's own suite on the checked-out tree, natively
  (cd "$work" && CUDA_USAGE_OUT="$RAW/cuda-$1.json" PYTHONPATH=python:$here/bench:$PYTHONPATH \
    "$PY" -m pytest test -q -p no:cacheprovider -p cuda_usage -rfEs) >"$RAW/suite-$1.txt" 2>&1
  local rc=$?
  echo "$rc" >"$RAW/suite-$1.rc"
  echo "suite $1: exit $rc ($(tail -1 "$RAW/suite-$1.txt"))"
}
SECONDS=0
suite base
"$PY" -m migrate.cli apply plans/sample-jit-to-ops.yaml --repo "$work" >"$RAW/apply.txt" 2>&1 \
  || { echo "apply failed"; cat "$RAW/apply.txt"; exit 1; }
suite head
head=$(git -C "$work" rev-parse HEAD)

parity() {  # name rev-range extra-args...: JSON + text report of one parity run
  local name=$1 range=$2; shift 2
  "$PY" - "$work" "$range" "$DEV" "$RAW/$name" "$@" <<'PYEOF'
import json, sys
from migrate.parity import run_parity
from migrate.parity.report import render
repo, rng, dev, out, *only = sys.argv[1:]
r = run_parity(repo, rng, "plans/sample-jit-to-ops.yaml", dev, only=only or None, timeout=500)
text = render(r)
open(out + ".txt", "w").write(text + "\n")
json.dump(r.to_dict(), open(out + ".json", "w"), indent=1, sort_keys=True)
print(text.splitlines()[-1])
PYEOF
}
echo "parity: $(parity parity "$base..$head")"

mutant() {  # name file old new: one changed constant in a moved kernel, committed on HEAD
  git -C "$work" checkout -q -B "$1" "$head"
  "$PY" - "$work/$2" "$3" "$4" <<'PYEOF'
import sys
path, old, new = sys.argv[1:]
text = open(path).read()
assert text.count(old) == 1, (path, old)
open(path, "w").write(text.replace(old, new))
PYEOF
  git -C "$work" commit -qam "mutant: $3 -> $4 in $2"
  echo "$1: $(parity "$1" "$base..$1" '*.activation.activation' | tail -1)"
}
act=python/sglang/kernels/ops/activation/activation.py
mutant mutant-silu "$act" "return x / (1.0 + tl.exp(-x))" "return x / (1.0000001 + tl.exp(-x))"
mutant mutant-gelu "$act" "(gate + 0.044715 * gate" "(gate + 0.0447151 * gate"
echo "wall ${SECONDS}s"
"$PY" "$here/bench/parity_gpu_result.py" "$RAW" >"$OUT/result.md"
tar -czf "$OUT/raw.tar.gz" -C "$OUT" raw && rm -rf "$RAW"
cat "$OUT/result.md"
