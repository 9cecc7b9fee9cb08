#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The SASS of one kernel of a kernels/ file as NVCC builds it here, with no
# device call: its registers, its instruction count, and the count between
# consecutive barriers (a loop's phases: staging, sweeps, each PARACR step),
# the whole listing in OUT.  NVRTC on the device gives close counts (80
# registers for thomas-split's fixed build both ways).  Usage:
#   tests/device/sass.sh FILE.cl KERNEL OUT [ARCH] [-DKS_REAL=float ...]
# e.g. tests/device/sass.sh tridiag-split.cl tridiag_split /tmp/split.sass sm_90 \
#        -DKS_REAL=float -DKS_SPLIT_M=16 -DKS_SPLIT_STREAM -DKS_SPLIT_T=256
# cuobjdump and the nvdisasm it runs come from PyPI (nvidia-cuda-cuobjdump,
# nvidia-cuda-nvdisasm), installed on first use under KS_SASS_TOOLS
# (default ~/.cache/kernelscope-sass).
set -euo pipefail
cd "$(dirname "$0")/../.."
FILE=${1:?usage: $0 FILE.cl KERNEL OUT [ARCH] [OPTIONS...]}
KERNEL=${2:?usage: $0 FILE.cl KERNEL OUT [ARCH] [OPTIONS...]}
OUT=${3:?usage: $0 FILE.cl KERNEL OUT [ARCH] [OPTIONS...]}
ARCH=${4:-sm_90}
shift $(( $# >= 4 ? 4 : 3 ))
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
TOOLS=${KS_SASS_TOOLS:-$HOME/.cache/kernelscope-sass}
find_cuobjdump () { ls "$TOOLS"/lib/python3*/site-packages/nvidia/cu*/bin/cuobjdump 2>/dev/null | head -1; }
CUOBJDUMP=$(find_cuobjdump || true)
if [ -z "$CUOBJDUMP" ]; then
  python3 -m venv "$TOOLS" >&2
  "$TOOLS/bin/pip" install -q nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm >&2
  CUOBJDUMP=$(find_cuobjdump)
fi
export PATH="$(dirname "$CUOBJDUMP"):$PATH"
T=$(mktemp -d "${TMPDIR:-/tmp}/ks-sass.XXXXXX")
trap 'rm -rf "$T"' EXIT
printf '#include "cuda-prelude.h"\n#include "%s"\n' "$(basename "$FILE")" > "$T/k.cu"
"$NVCC" -arch="$ARCH" -DKS_CUDA=1 "$@" -I kernels -x cu -cubin "$T/k.cu" -o "$T/k.cubin" -Xptxas -v 2>&1 |
  grep -A3 "'$KERNEL'" | grep -E "registers|spill" || true
"$CUOBJDUMP" -sass -fun "$KERNEL" "$T/k.cubin" > "$OUT"
# One instruction a line: /*offset*/ OPCODE ...;
grep -oP '/\*[0-9a-f]{4,}\*/\s+\K[^;]*' "$OUT" > "$T/ops"
echo "instructions: $(wc -l < "$T/ops")"
echo "between barriers: $(awk '/BAR\.SYNC/ { printf "%d ", n; n = 0; next } { n++ } END { print n }' "$T/ops")"
