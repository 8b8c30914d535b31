#!/usr/bin/env bash
# Host side of the GPU parity run (bench/parity_gpu_run.sh): the GPU machine has python3,
# torch, triton, pytest, git, click, PyYAML and build, but no network. Download wheels of
# migrate's other pure-Python and binary dependencies for its Python (3.12, x86-64) into
# the git-ignored .whl/, which the device tool carries. Versions are the ones this
# checkout's venv runs, so both hosts run the same migrate code on the same libraries.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON:-$here/.venv/bin/python}
dest=$here/.whl
mkdir -p "$dest"
version() { "$PY" -c "import importlib.metadata as m; print(m.version('$1'))"; }
pkgs=()
for name in libcst GitPython gitdb smmap ruamel.yaml; do pkgs+=("$name==$(version "$name")"); done
platforms=()
for p in manylinux_2_28_x86_64 manylinux_2_27_x86_64 manylinux_2_17_x86_64 manylinux2014_x86_64; do
  platforms+=(--platform "$p")
done
"$PY" -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 \
  --implementation cp "${platforms[@]}" -d "$dest" "${pkgs[@]}"
ls -1 "$dest"
du -sh "$dest"
