#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A/B of thomas-split's builds for one group size (KS_SPLIT_FIXED=0: the
# run-time size only; see kernels/tridiag-split.cl, KS_SPLIT_T) on the GPU
# machine, in one device call after tests/device/pack.sh:
#   source .devcarry/env.sh && tests/device/split-fixed-ab.sh "$OUT/fixed"
# bench tridiag at SYSTEMS (default 5000,40000) x 4095 float on cuda:0
# beside cuSPARSE, ROUNDS times (default 3, interleaved); Nsight Compute's
# instruction count and issue activity for each at 40,000 systems where
# ncu is found; then test-tridiag's /tridiag/split, /tridiag/zero-pivot
# and /tridiag/partition on every device with the fixed builds (BIN,
# default /tmp/ks/bin).  KNOB: another 0|1 knob to A/B the same way
# (KS_SPLIT_LEAN did, commit 2b6595e).
set -u
OUT=${1:?usage: $0 OUT_DIR}
BIN=${BIN:-/tmp/ks/bin}
KNOB=${KNOB:-KS_SPLIT_FIXED}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
status=0
for round in $(seq "${ROUNDS:-3}"); do
  for fixed in 0 1; do
    echo "## round $round, $KNOB=$fixed"
    env "$KNOB=$fixed" kernelscope-cli bench tridiag -d cuda:0 --n 4095 --systems "${SYSTEMS:-5000,40000}" \
      --method thomas-split,cusparse-strided --reps "${REPS:-5}" > "$OUT/bench-$fixed-$round.log" 2>&1 || status=1
    grep -E '^ +[0-9]+ (thomas-split|cusparse)' "$OUT/bench-$fixed-$round.log"
  done
done
NCU=${NCU:-$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | tail -1)}
if [ -x "$NCU" ]; then
  for fixed in 0 1; do
    echo "## ncu, $KNOB=$fixed"
    env "$KNOB=$fixed" "$NCU" --clock-control none --kernel-name 'regex:tridiag_split$' --launch-skip 2 --launch-count 1 \
      --metrics gpu__time_duration.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread \
      kernelscope-cli bench tridiag -d cuda:0 --n 4095 --systems 40000 --method thomas-split --reps 3 \
      > "$OUT/ncu-$fixed.txt" 2>&1 || status=1
    grep -E '^ +(gpu__|smsp__|dram__|launch__)' "$OUT/ncu-$fixed.txt" | sed 's/  */ /g'
  done
fi
echo "## test-tridiag /tridiag/split, /tridiag/zero-pivot, /tridiag/partition"
timeout "${TEST_TIMEOUT:-240}" "$BIN/test-tridiag" -p /tridiag/split -p /tridiag/zero-pivot -p /tridiag/partition > "$OUT/test.log" 2>&1 || status=1
grep -E '^(ok|not ok)|ERROR' "$OUT/test.log"
exit $status
