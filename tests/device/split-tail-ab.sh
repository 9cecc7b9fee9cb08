#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A/B of thomas-split's Thomas tail (kernels/tridiag-split.cl, KS_SPLIT_TAIL:
# rows a tail subsystem holds, 0 for PARACR to the end) on the GPU machine,
# in one device call after tests/device/pack.sh:
#   source .devcarry/env.sh && tests/device/split-tail-ab.sh "$OUT/tail"
# Each TAILS value (default "0 4 8 16 32") builds a copy of kernels/ with
# that default and runs bench tridiag at SYSTEMS (default 5000,40000) x
# 4095 on cuda:0 beside cuSPARSE, ROUNDS times (default 2, interleaved),
# then test-tridiag's /tridiag/split, /tridiag/zero-pivot and
# /tridiag/partition on every device for each TEST_TAILS value (default
# "8 16"; they must be among TAILS) (BIN, default /tmp/ks/bin).
set -u
OUT=${1:?usage: $0 OUT_DIR}
BIN=${BIN:-/tmp/ks/bin}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
root=$(mktemp -d "${TMPDIR:-/tmp}/split-tail.XXXXXX")
status=0
for tail in ${TAILS:-0 4 8 16 32}; do
  mkdir -p "$root/$tail" && cp kernels/*.cl kernels/*.h kernels/*.cu "$root/$tail/"
  sed -i "s/^#define KS_SPLIT_TAIL [0-9]*$/#define KS_SPLIT_TAIL $tail/" "$root/$tail/tridiag-split.cl"
  grep -q "^#define KS_SPLIT_TAIL $tail$" "$root/$tail/tridiag-split.cl" || { echo "no copy for $tail"; exit 1; }
done
for round in $(seq "${ROUNDS:-2}"); do
  for tail in ${TAILS:-0 4 8 16 32}; do
    echo "## round $round, KS_SPLIT_TAIL=$tail"
    kernelscope-cli bench tridiag --kernel-dir "$root/$tail" -d cuda:0 --n 4095 --systems "${SYSTEMS:-5000,40000}" \
      --method thomas-split,cusparse-strided --reps "${REPS:-5}" > "$OUT/bench-$tail-$round.log" 2>&1 || status=1
    grep -E '^ +[0-9]+ (thomas-split|cusparse)' "$OUT/bench-$tail-$round.log"
  done
done
for tail in ${TEST_TAILS:-8 16}; do
  echo "## KS_SPLIT_TAIL=$tail: test-tridiag /tridiag/split, /tridiag/zero-pivot, /tridiag/partition"
  KERNELSCOPE_KERNEL_DIR="$root/$tail" "$BIN/test-tridiag" -p /tridiag/split -p /tridiag/zero-pivot \
    -p /tridiag/partition > "$OUT/test-$tail.log" 2>&1 || status=1
  grep -E '^(ok|not ok)|ERROR' "$OUT/test-$tail.log"
done
exit $status
