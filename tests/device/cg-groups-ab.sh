#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A/B of one knob of the fused CG (src/solvers/ks-cg-device.c) on the GPU
# machine, in one device call after tests/device/pack.sh:
#   source .devcarry/env.sh && tests/device/cg-groups-ab.sh "$OUT/cg"
# KNOB (default KS_CG_ITEMS_PER_CU, the grid's items a compute unit,
# reduction_groups; KS_CG_BATCHED=0|1 the r update's batches,
# ks_cg_program_options) and ITEMS, its values (default
# "1024 512 768 1536 2048"); CG_SIZES (default
# 1048576,4194304), ROUNDS (default 2): bench cg -d cuda:0 --reps 3 each,
# the values interleaved within a round.
set -u
OUT=${1:?usage: $0 OUT_DIR}
KNOB=${KNOB:-KS_CG_ITEMS_PER_CU}
mkdir -p "$OUT"
for round in $(seq "${ROUNDS:-2}"); do
  for items in ${ITEMS:-1024 512 768 1536 2048}; do
    echo "## round $round, $KNOB=$items"
    env "$KNOB=$items" kernelscope-cli bench cg -d cuda:0 --reps 3 --sizes "${CG_SIZES:-1048576,4194304}" \
      > "$OUT/cg-$items-$round.log" 2>&1 || echo "## failed"
    grep -E '^ +[0-9]+ +(fused|fused-graph|library) ' "$OUT/cg-$items-$round.log"
  done
done
