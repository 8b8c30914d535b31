#!/usr/bin/env bash
# Prepare .parity_gpu/ for a GPU host without git/libcst: for the applied sample and the
# two fixture repos, a parity spec (discovery done here, with git and the plan) plus plain
# BASE and HEAD checkouts. The GPU host then runs bench/parity_gpu_run.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON:-$here/.venv/bin/python}
out=$here/.parity_gpu
rm -rf "$out" && mkdir -p "$out"
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.invalid
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.invalid
tmp=$(mktemp -d)

# the sample, migrated by `migrate apply`
cp -r "$here/kernels_sample" "$tmp/sample"
find "$tmp/sample" -name __pycache__ -prune -exec rm -rf {} +
(cd "$tmp/sample" && git init -q -b main && git add -A && git commit -qm base)
"$PY" -m migrate.cli apply "$here/plans/sample-jit-to-ops.yaml" --repo "$tmp/sample" >/dev/null
# the fixture repos of tests/test_parity.py (pure move; hidden changes)
PYTHONPATH="$here/tests" "$PY" - "$tmp" <<'PYEOF'
import sys
from pathlib import Path
import conftest
from test_parity_fixtures import dirty_move, pure_move, write_base
for name, move in (("fixture_pure", pure_move), ("fixture_dirty", dirty_move)):
    root = Path(sys.argv[1]) / name
    root.mkdir()
    write_base(root)
    conftest.init_repo(root)
    move(root)
PYEOF

pack() {  # name repo base plan-args...
  local name=$1 repo=$2 base=$3; shift 3
  mkdir -p "$out/$name/base" "$out/$name/head"
  git -C "$repo" archive "$base" | tar -x -C "$out/$name/base"
  git -C "$repo" archive HEAD | tar -x -C "$out/$name/head"
  "$PY" -m migrate.cli parity "$base..HEAD" --repo "$repo" "$@" \
    --save-spec "$out/$name/spec.json" --no-run
}
pack sample "$tmp/sample" "$(git -C "$tmp/sample" rev-list --max-parents=0 HEAD)" \
  --plan "$here/plans/sample-jit-to-ops.yaml"
pack fixture_pure "$tmp/fixture_pure" HEAD~1
pack fixture_dirty "$tmp/fixture_dirty" HEAD~2
rm -rf "$tmp"
du -sh "$out"
