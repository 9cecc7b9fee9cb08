#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Nsight Compute's view of the three kernels issue 30's open targets turn
# on, in one device call after tests/device/pack.sh:
#   source .devcarry/env.sh && tests/device/ncu-profile.sh "$OUT/ncu"
# thomas-split at 40,000 x 4095 float (target 3), the tuned row sums beside
# CUB's segmented reduction (target 4) and the fused CG at 1.05 M rows
# (target 8): speed of light, memory, warp states, scheduler, occupancy and
# instruction mix, one launch each after the warm-up ones.  Clocks are left
# alone (--clock-control none: the device notes ask it).  ncu replays each
# kernel; the figures are its, not the benches' spans.  NCU overrides the
# profiler's path (default: ncu on PATH, else the newest under /opt/nvidia).
# PARTS (default "split rowsums cg stalls") names the parts to run; "sass"
# (not by default) samples thomas-split's warp stalls per SASS instruction:
# $OUT/split-sass.csv, every instruction with its samples by reason.
set -u
PARTS=" ${PARTS:-split rowsums cg stalls} "
want () { [[ "$PARTS" == *" $1 "* ]]; }
OUT=${1:?usage: $0 OUT_DIR}
CUDA=${CUDA:-cuda:0}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
NCU=${NCU:-$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | tail -1)}
[ -x "$NCU" ] || { echo "no ncu"; exit 1; }
"$NCU" --version | tail -1
SECTIONS=(--section SpeedOfLight --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis
          --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats
          --section InstructionStats)
prof () {
  local name=$1 kernels=$2 skip=$3 count=$4
  shift 4
  echo "## $name"
  "$NCU" --clock-control none --kernel-name "regex:$kernels" --launch-skip "$skip" --launch-count "$count" \
    "${SECTIONS[@]}" "$@" > "$OUT/$name.txt" 2>&1 || echo "## $name failed"
  # The lines that say where the time goes; the whole report stays in the file.
  grep -E '^  [a-z_]+|Duration|Memory Throughput|DRAM Throughput|Compute \(SM\) Throughput|Achieved Occupancy|Theoretical Occupancy|Issued Ipc|No Eligible|Warp Cycles Per Issued|Registers Per|Shared Memory Configuration|Block Limit|L1/TEX Hit|Mem Busy|Max Bandwidth|Mem Pipes Busy|Executed Instructions  ' \
    "$OUT/$name.txt" | sed 's/  */ /g'
}
want split && prof split 'tridiag_split$' 2 1 kernelscope-cli bench tridiag -d "$CUDA" --n 4095 --systems 40000 \
  --method thomas-split --reps 3
# The tuned pair, then CUB's block reduction (kernels/index-cub.cu), each
# after its warm-up launch.
want rowsums && prof rowsums 'index_sum_tuned' 2 2 kernelscope-cli run index-reduce -d "$CUDA" --method tuned --reps 3
want rowsums && prof rowsums-cub 'index_sum_cub' 1 1 kernelscope-cli run index-reduce -d "$CUDA" --method cub --reps 3
# The fused CG's three kernels (src/solvers/ks-cg-device.c) past the first
# iterations; bench cg runs the unfused method too, whose kernels
# (cg_dot, cg_axpy, ...) the names leave out.
want cg && prof cg 'cg_spmv_dot_alpha|cg_update_r_beta|cg_update_xp' 30 3 kernelscope-cli bench cg -d "$CUDA" \
  --sizes 1048576 --reps 1
# Where in the code thomas-split's warps wait: PC sampling per instruction.
if want sass; then
  "$NCU" --clock-control none --kernel-name 'regex:tridiag_split$' --launch-skip 2 --launch-count 1 \
    --section WarpStateStats --section SourceCounters -f -o "$OUT/split-sass" \
    kernelscope-cli bench tridiag -d "$CUDA" --n 4095 --systems 40000 --method thomas-split --reps 3 \
    > "$OUT/split-sass.log" 2>&1 || echo "## split-sass failed"
  "$NCU" -i "$OUT/split-sass.ncu-rep" --page source --csv --print-source sass > "$OUT/split-sass.csv" 2>&1 ||
    echo "## split-sass.csv failed"
  rm -f "$OUT/split-sass.ncu-rep"
fi
# The warp stall reasons of thomas-split, per instruction class.
want stalls || exit 0
"$NCU" --clock-control none --kernel-name 'regex:tridiag_split$' --launch-skip 2 --launch-count 1 \
  --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio$',l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__inst_executed_op_ldgsts.sum,smsp__inst_executed.sum,sm__cycles_elapsed.avg \
  kernelscope-cli bench tridiag -d "$CUDA" --n 4095 --systems 40000 --method thomas-split --reps 3 \
  > "$OUT/split-stalls.txt" 2>&1 || echo "## split-stalls failed"
grep -E 'stalled|wavefronts|conflicts|ldgsts|inst_executed|cycles' "$OUT/split-stalls.txt" | sed 's/  */ /g'
