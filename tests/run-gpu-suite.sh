#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Every test binary that runs on the GPUs it finds (each enumerates the
# OpenCL and CUDA devices and runs its device cases on every one), run by
# its full path (GLib's subprocess tests re-execute argv[0]), one line per
# binary, then the totals.  For the GPU machine, where meson is not:
#   tests/run-gpu-suite.sh BIN_DIR [LOG_DIR]
# BIN_DIR holds the binaries: build/tests here, or /tmp/ks/bin after
# tests/device/pack.sh's carry is unpacked there (README.md, Tests).
# Each binary's whole TAP output goes to LOG_DIR/NAME.log (default: a
# temporary folder, named at the end).  Exit status 1 if any binary failed.
set -u
BIN=${1:?usage: $0 BIN_DIR [LOG_DIR]}
BIN=$(cd "$BIN" && pwd)
LOGS=${2:-$(mktemp -d)}
mkdir -p "$LOGS"
SRC=$(cd "$(dirname "$0")" && pwd)
# As meson's test_env: the source tree's test files, GLib's checks, no
# settings written, PoCL's kernel cache kept apart.
export G_TEST_SRCDIR=${G_TEST_SRCDIR:-$SRC} G_TEST_BUILDDIR=${G_TEST_BUILDDIR:-$BIN}
export G_DEBUG=gc-friendly MALLOC_CHECK_=2 NO_AT_BRIDGE=1 GSETTINGS_BACKEND=memory
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$LOGS/pocl-cache}
TESTS=(test-devices test-runtime test-runtime-buffers test-runtime-queues test-runtime-programs test-cuda
       test-gauss test-gauss-blocked test-tridiag test-exp-tridiag test-heat test-heat-device test-hybrid test-index test-micro)
# KS_GPU_SUITE_TESTS="test-a test-b" runs those alone; KS_GPU_SUITE_TIMEOUT
# (seconds, default 600) bounds each binary.
[ -n "${KS_GPU_SUITE_TESTS:-}" ] && read -r -a TESTS <<< "$KS_GPU_SUITE_TESTS"
echo "# $(date -u '+%Y-%m-%d %H:%M UTC') on $(hostname)"
command -v nvidia-smi >/dev/null && nvidia-smi -L | sed 's/^/# /'
total_pass=0 total_fail=0 total_skip=0 failed_bins=0
for t in "${TESTS[@]}"; do
  exe="$BIN/$t"
  if [ ! -x "$exe" ]; then
    printf '%-22s not built here (skipped)\n' "$t"
    continue
  fi
  start=$(date +%s%N)
  timeout "${KS_GPU_SUITE_TIMEOUT:-600}" "$exe" --tap > "$LOGS/$t.log" 2>&1
  rc=$?
  ms=$((($(date +%s%N) - start) / 1000000))
  pass=$(grep -cE '^ok ' "$LOGS/$t.log")
  skip=$(grep -cE '^ok .*# SKIP' "$LOGS/$t.log")
  fail=$(grep -cE '^not ok ' "$LOGS/$t.log")
  pass=$((pass - skip))
  # A binary that aborts prints no "not ok" for the case it died in.
  if [ $rc -ne 0 ] && [ "$fail" -eq 0 ]; then fail=1; fi
  [ $rc -ne 0 ] && failed_bins=$((failed_bins + 1))
  total_pass=$((total_pass + pass)) total_fail=$((total_fail + fail)) total_skip=$((total_skip + skip))
  printf '%-22s %4d passed, %d failed, %3d skipped, %5d.%d s, exit %d\n' "$t" "$pass" "$fail" "$skip" \
    $((ms / 1000)) $((ms % 1000 / 100)) "$rc"
  if [ $rc -ne 0 ]; then
    grep -E '^not ok |ERROR|assertion|should be' "$LOGS/$t.log" | head -5 | sed 's/^/    # /'
  fi
done
echo "# logs in $LOGS"
echo "$total_pass passed, $total_fail failed, $total_skip skipped"
[ $failed_bins -eq 0 ]
