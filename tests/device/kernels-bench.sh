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
# prints each table.  REPS (default 5), SYSTEMS (default 5000,40000), CUDA
# (default cuda:0) and BIN (the test binaries, default /tmp/ks/bin) change
# the runs.  Exit status 1 if a run or a test failed.
set -u
OUT=${1:?usage: $0 OUT_DIR}
REPS=${REPS:-5}
SYSTEMS=${SYSTEMS:-5000,40000}
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

step index-reduce run index-reduce -d "$CUDA" ${ocl:+-d "$ocl"} --reps "$REPS" \
  --json "$OUT/index-reduce.json" --csv "$OUT/index-reduce.csv"
step tridiag bench tridiag -d "$CUDA${ocl:+,$ocl}" --systems "$SYSTEMS" --large-n 0 --no-host --reps "$REPS" \
  --json "$OUT/tridiag.json" --csv "$OUT/tridiag.csv"

echo
echo "## correctness on every GPU device (CUDA and OpenCL)"
KS_GPU_SUITE_TESTS="test-index test-tridiag test-exp-tridiag" \
  "$(dirname "$0")/../run-gpu-suite.sh" "$BIN" "$OUT/tests" || status=1
exit $status
