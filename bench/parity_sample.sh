#!/usr/bin/env bash
# Full `migrate parity` on kernels_sample/ after `migrate apply plans/sample-jit-to-ops.yaml`:
# every moved Triton kernel, BASE against HEAD. Usage: bench/parity_sample.sh [--device D] [...]
# Needs git, python with torch + triton + migrate importable (PYTHON, default: python3).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON:-python3}
work=$(mktemp -d)/kernels_sample
cp -r "$here/kernels_sample" "$work"
find "$work" -name __pycache__ -prune -exec rm -rf {} +
cd "$work"
git init -q -b main
git -c user.name=bench -c user.email=bench@example.invalid add -A
git -c user.name=bench -c user.email=bench@example.invalid commit -qm base
base=$(git rev-parse HEAD)
if [ -n "${APPLIED:-}" ]; then  # a pre-applied history (bundle) when migrate apply can't run
  git fetch -q "$APPLIED" main && git reset -q --hard FETCH_HEAD
else
  PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}" "$PY" -m migrate.cli apply \
    "$here/plans/sample-jit-to-ops.yaml" --repo . >/dev/null
fi
PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}" "$PY" -m migrate.cli parity "$base..HEAD" \
  --plan "$here/plans/sample-jit-to-ops.yaml" --repo . "$@"
