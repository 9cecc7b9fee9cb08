#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A/B of the fused CG's grid (src/solvers/ks-cg-device.c reduction_groups:
# items a compute unit, KS_CG_ITEMS_PER_CU, default 1024) on the GPU
# machine, in one device call after tests/device/pack.sh:
#   source .devcarry/env.sh && tests/device/cg-groups-ab.sh "$OUT/cg"
# ITEMS (default "1024 512 768 1536 2048"), CG_SIZES (default
# 1048576,4194304), ROUNDS (default 2): bench cg -d cuda:0 --reps 3 each.
set -u
OUT=${1:?usage: $0 OUT_DIR}
mkdir -p "$OUT"
for round in $(seq "${ROUNDS:-2}"); do
  for items in ${ITEMS:-1024 512 768 1536 2048}; do
    echo "## round $round, KS_CG_ITEMS_PER_CU=$items"
    KS_CG_ITEMS_PER_CU=$items kernelscope-cli bench cg -d cuda:0 --reps 3 --sizes "${CG_SIZES:-1048576,4194304}" \
      > "$OUT/cg-$items-$round.log" 2>&1 || echo "## failed"
    grep -E '^ +[0-9]+ +(fused|fused-graph|library) ' "$OUT/cg-$items-$round.log"
  done
done
