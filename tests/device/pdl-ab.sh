#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A/B of programmatic dependent launch (ks_kernel_set_waits_previous) on
# the GPU machine, in one device call after tests/device/pack.sh:
#   source .devcarry/env.sh && tests/device/pdl-ab.sh "$OUT/pdl"
# Runs the tuned row sums (run index-reduce) and bench cg under KS_PDL=0
# (plain launches), 1 (early, not in graphs: the default) and graph (early
# in graphs too),
# and once more with KS_PDL=graph over a copy of kernels/ whose kernels never
# let the next start before their groups end (no ks_grid_start_next: the
# implicit trigger).  CG_SIZES (default 1048576,4194304), REPS (default 10).
set -u
OUT=${1:?usage: $0 OUT_DIR}
CUDA=${CUDA:-cuda:0}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
late=$(mktemp -d "${TMPDIR:-/tmp}/kernels-late.XXXXXX")
mkdir -p "$late" && cp kernels/*.cl kernels/*.h kernels/*.cu "$late/"
sed -i 's/^#define ks_grid_start_next()    asm volatile.*/#define ks_grid_start_next()    (void) 0/' "$late/ks-common.h"
grep -q 'ks_grid_start_next()    (void) 0' "$late/ks-common.h" || { echo "no late copy"; exit 1; }
run () {
  local name=$1
  shift
  echo "## $name"
  "$@" > "$OUT/$name.log" 2>&1 || echo "## $name failed"
  # The table's rows (index-reduce's have no device column, bench cg's do).
  grep -E '^ +(kernels|tuned|cub|[0-9]+) ' "$OUT/$name.log"
}
for pdl in 0 1 graph; do
  KS_PDL=$pdl run "index-pdl-$pdl" kernelscope-cli run index-reduce -d "$CUDA" --method kernels,tuned,cub \
    --reps "${REPS:-10}" --csv "$OUT/index-pdl-$pdl.csv"
  KS_PDL=$pdl run "cg-pdl-$pdl" kernelscope-cli bench cg -d "$CUDA" --reps 3 \
    --sizes "${CG_SIZES:-1048576,4194304}" --csv "$OUT/cg-pdl-$pdl.csv"
done
KS_PDL=graph run index-pdl-late kernelscope-cli run index-reduce --kernel-dir "$late" -d "$CUDA" \
  --method kernels,tuned,cub --reps "${REPS:-10}" --csv "$OUT/index-pdl-late.csv"
KS_PDL=graph run cg-pdl-late kernelscope-cli bench cg --kernel-dir "$late" -d "$CUDA" --reps 3 \
  --sizes "${CG_SIZES:-1048576,4194304}" --csv "$OUT/cg-pdl-late.csv"
