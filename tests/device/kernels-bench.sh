#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 30's kernel items on the GPU machine, each beside its library in the
# same run, on cuda:0 and on NVIDIA's OpenCL (found by its platform): paper
# 003's row sums (the paper's two kernels, the tuned pair, CUB, cuBLAS gemv)
# and the tridiagonal batches (every method, cuSPARSE's among them), then
# the correctness tests of both on every GPU device.  Pack here with
# tests/device/pack.sh, then in one device call (carry [".devcarry"]):
#   source .devcarry/env.sh && tests/device/kernels-bench.sh "$OUT/kernels"
# Writes OUT_DIR/{index-reduce,tridiag}.{json,csv,log} and OUT_DIR/tests/;
# prints each table.  REPS (default 5), SYSTEMS (default 5000,40000), SIZES
# (Gauss, default 1000,2000), STEPS (default "index tridiag gauss tests";
# also "split": thomas-split at SYSTEMS systems with pieces of 8 and of 16
# rows, KS_TRIDIAG_SPLIT_ROWS (SPLIT_ROWS, default "8 16"), each streamed
# and not, KS_TRIDIAG_SPLIT_STREAM (SPLIT_STREAM, default "0 1"); "large": one
# system of LARGE_N (default 16777215, 2^24 - 1) by thomas-split's partition,
# paracr-thomas and cuSPARSE's gtsv2 and gtsv2_nopivot; "cg": bench cg,
# over CG_LAST_GROUP and PDL, on CG_SIZES),
# CUDA (default cuda:0) and BIN (the test binaries, default /tmp/ks/bin)
# change the runs.  Exit status 1 if a run or a test failed.
set -u
OUT=${1:?usage: $0 OUT_DIR}
REPS=${REPS:-5}
SYSTEMS=${SYSTEMS:-5000,40000}
SIZES=${SIZES:-1000,2000}
STEPS=${STEPS:-index tridiag gauss tests}
CUDA=${CUDA:-cuda:0}
BIN=${BIN:-/tmp/ks/bin}
mkdir -p "$OUT"
# NVIDIA's OpenCL device: the id above the "platform NVIDIA ..." line.
ocl=$(kernelscope-cli devices 2>/dev/null |
      awk '/^\[/ { id = "" }
           match($0, /\(opencl:[0-9]+:[0-9]+\)/) { id = substr($0, RSTART + 1, RLENGTH - 2) }
           /^ *platform NVIDIA/ && id != "" { print id; exit }')
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'); CUDA $CUDA, NVIDIA OpenCL ${ocl:-not found}"
command -v nvidia-smi >/dev/null && nvidia-smi -L | sed 's/^/# /'
status=0

step () {
  local name=$1
  shift
  echo
  echo "## $name: kernelscope-cli $*"
  kernelscope-cli "$@" > "$OUT/$name.log" 2>&1 || { echo "## $name failed (exit $?)"; status=1; }
  # The table and what follows it; the progress lines stay in the log.
  grep -v '^\[ *[0-9]*/[0-9]*\]' "$OUT/$name.log"
}

has () { [[ " $STEPS " == *" $1 "* ]]; }

# PDL="1 0": the kernels that wait for their predecessor themselves (the
# tuned row sums' kernel 2, the fused CG's) started early on CUDA (1, the
# default) or as any launch (0); one run each, suffixed -pdl-N.
if has index; then
  for pdl in ${PDL:-1}; do
    sfx=${PDL:+-pdl-$pdl}
    KS_PDL=$pdl step "index-reduce$sfx" run index-reduce -d "$CUDA" ${ocl:+-d "$ocl"} --reps "$REPS" \
      --json "$OUT/index-reduce$sfx.json" --csv "$OUT/index-reduce$sfx.csv"
  done
fi
# The device methods and cuSPARSE's (the host's would take minutes at
# 40,000 systems); bench tridiag is run bench-tridiag.
TRIDIAG_METHODS=${TRIDIAG_METHODS:-thomas-global,thomas-interleaved,paracr-partial,thomas-coalesced,thomas-transposed,paracr-thomas,thomas-split,cusparse-strided,cusparse-thomas,cusparse-lu}
has tridiag && step tridiag bench tridiag -d "$CUDA" ${ocl:+-d "$ocl"} --n 4095 --systems "$SYSTEMS" \
  --method "$TRIDIAG_METHODS" --reps "$REPS" --json "$OUT/tridiag.json" --csv "$OUT/tridiag.csv"
if has split; then
  for rows in ${SPLIT_ROWS:-8 16}; do
    for stream in ${SPLIT_STREAM:-0 1}; do
      KS_TRIDIAG_SPLIT_ROWS=$rows KS_TRIDIAG_SPLIT_STREAM=$stream step "split-$rows-stream-$stream" \
        bench tridiag -d "$CUDA" --n 4095 --systems "$SYSTEMS" \
        --method thomas-split,thomas-coalesced,cusparse-strided --reps "$REPS"
    done
  done
fi
has large && step large bench tridiag -d "$CUDA" --systems 1 --n "${LARGE_N:-16777215}" \
  --method thomas-split,paracr-thomas,cusparse-thomas,cusparse-nopivot --reps "$REPS" \
  --json "$OUT/large.json" --csv "$OUT/large.csv"
# CG_LAST_GROUP="0 1": the fused CG's dot products ended by a one-group
# launch (0) or by the last group of their own launch (1, the GPU default).
if has cg; then
  for last in ${CG_LAST_GROUP:-1}; do
    for pdl in ${PDL:-1}; do
      sfx=${PDL:+-pdl-$pdl}
      KS_PDL=$pdl KS_CG_LAST_GROUP=$last step "cg-last-$last$sfx" bench cg -d "$CUDA" ${ocl:+-d "$ocl"} \
        --reps 3 ${CG_SIZES:+--sizes "$CG_SIZES"} --json "$OUT/cg-last-$last$sfx.json" \
        --csv "$OUT/cg-last-$last$sfx.csv"
    done
  done
fi
# bench gauss is run bench-gauss: every device named, the host for LAPACK.
has gauss && step gauss bench gauss -d "$CUDA" ${ocl:+-d "$ocl"} -d host --sizes "$SIZES" --reps "$REPS" \
  --triad=true --json "$OUT/gauss.json" --csv "$OUT/gauss.csv"

if has tests; then
  echo
  echo "## correctness on every GPU device (CUDA and OpenCL)"
  KS_GPU_SUITE_TESTS=${TESTS:-"test-index test-tridiag test-exp-tridiag test-gauss-blocked test-cuda"} \
    "$(dirname "$0")/../run-gpu-suite.sh" "$BIN" "$OUT/tests" || status=1
  # A failed test's own lines, here, where the call's output shows them.
  for log in "$OUT"/tests/*.log; do
    grep -q -e '^not ok' -e 'ERROR' "$log" 2>/dev/null || continue
    echo "### $(basename "$log")"
    grep -e '^not ok' -e 'ERROR' -e 'assertion' -B2 "$log" | tail -20
  done
fi
exit $status
