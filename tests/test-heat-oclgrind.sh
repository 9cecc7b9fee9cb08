#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The heat CG kernels (kernels/heat-cg.cl) under Oclgrind: test-heat-device's
# device CG (float and double, base and fused, converged and not) and a heat step
# against the host, on a small mesh (KS_TEST_HEAT_SMALL), with Oclgrind
# looking for out-of-bounds accesses, data races in the reductions,
# uninitialised reads and API misuse.  Its log, which gathers every OpenCL
# context's reports (oclgrind-log.sh), must stay empty.  Skipped (77) where
# oclgrind is not installed.
#
# Usage: test-heat-oclgrind.sh /abs/path/to/test-heat-device
set -u

BIN=${1:-}
if [ -z "$BIN" ] || [ ! -x "$BIN" ]; then
  echo "usage: $0 /path/to/test-heat-device (got \"$BIN\", not an executable)" >&2
  exit 1
fi
if ! command -v oclgrind >/dev/null 2>&1; then
  echo "1..0 # SKIP oclgrind is not on PATH (install it, e.g. apt-get install oclgrind, to run this test)"
  exit 77
fi
. "$(dirname "$0")/oclgrind-log.sh"
T=$(mktemp -d "${TMPDIR:-/tmp}/ks-test-heat-oclgrind.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
LOG=$T/oclgrind.log

# KS_CG_LAST_GROUP=1: the fused CG as GPUs run it (its dot products ended
# by the last group of their launch, the group-count handshake under the
# race checks); PoCL, in test-heat-device, runs the one-group reductions.
# KS_CG_BATCHED=1: the r update's loads in batches, as GPUs build it.
KS_CG_LAST_GROUP=1 KS_CG_BATCHED=1 KS_TEST_HEAT_SMALL=1 oclgrind_logged "$LOG" --data-races --uninitialized --check-api \
  "$BIN" -p /heat/cg-device -p /heat/device-step >"$T/out" 2>"$T/err"
RC=$?
FAILED=0
if grep -q '^# Oclgrind Simulator double fused' "$T/out"; then
  echo "ok 1 - the CG ran on Oclgrind's device"
else
  echo "not ok 1 - the CG ran on Oclgrind's device"
  sed 's/^/# /' "$T/out" | head -n 20
  FAILED=1
fi
if [ -s "$LOG" ]; then
  echo "not ok 2 - Oclgrind reported nothing"
  head -n 40 "$LOG" | sed 's/^/#   /'
  FAILED=1
else
  echo "ok 2 - Oclgrind reported nothing"
fi
if [ "$RC" -eq 0 ]; then
  echo "ok 3 - test-heat-device passed under Oclgrind"
else
  echo "not ok 3 - test-heat-device passed under Oclgrind (exit $RC)"
  head -n 40 "$T/err" | sed 's/^/#   /'
  FAILED=1
fi
echo "1..3"
exit $FAILED
