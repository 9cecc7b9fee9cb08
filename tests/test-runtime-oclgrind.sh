#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/test-runtime.c (and its neighbours test-runtime-buffers, -queues
# and -programs) under Oclgrind: every item of the runtime seam
# (local-memory reduction, pinned map/unmap, copy and fill, views, two
# queues with an event, a 3D launch at an offset, the shared header, timed
# transfers) on Oclgrind's simulator, which reports out-of-bounds accesses,
# data races (the reduction's barriers), uninitialised reads and API misuse.
# Its reports go to a log of their own, which must stay empty.  Skipped (77)
# where oclgrind is not installed.
#
# The same for another GTest binary (test-runtime's neighbours,
# test-tridiag): give the ok line that proves its tests ran on Oclgrind's
# device; the planted out-of-bounds self-test is test-runtime's own and
# runs only for it.
#
# Usage: test-runtime-oclgrind.sh /abs/path/to/test-runtime
#        test-runtime-oclgrind.sh /abs/path/to/BIN 'REGEX of an ok line'
set -u

BIN=${1:-}
EXPECT=${2:-'^ok .*/runtime/opencl:0:0/reduction'}
SELF_TEST=$([ $# -lt 2 ] && echo yes)
if [ -z "$BIN" ] || [ ! -x "$BIN" ]; then
  echo "usage: $0 /path/to/test-runtime (got \"$BIN\", not an executable)" >&2
  exit 1
fi
if ! command -v oclgrind >/dev/null 2>&1; then
  echo "1..0 # SKIP oclgrind is not on PATH (install it, e.g. apt-get install oclgrind, to run this test)"
  exit 77
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/ks-test-runtime-oclgrind.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
LOG=$T/oclgrind.log

oclgrind --log "$LOG" --data-races --uninitialized --check-api "$BIN" --tap >"$T/out" 2>"$T/err"
RC=$?
# The binary's own plan goes: this script adds its checks and plans at the end.
grep -v '^1\.\.[0-9]' "$T/out"
FAILED=0
# Under oclgrind, its simulator is the only OpenCL device: the tests ran on it.
if ! grep -q -E "$EXPECT" "$T/out"; then
  echo "not ok - the tests ran on Oclgrind's device (no line matching $EXPECT)"
  FAILED=1
else
  echo "ok - the tests ran on Oclgrind's device"
fi
if [ -s "$LOG" ]; then
  echo "not ok - Oclgrind reported nothing"
  head -n 40 "$LOG" | sed 's/^/#   /'
  FAILED=1
else
  echo "ok - Oclgrind reported nothing"
fi
if [ "$RC" -ne 0 ]; then
  echo "# $(basename "$BIN") exited with $RC; its stderr:"
  head -n 40 "$T/err" | sed 's/^/#   /'
  FAILED=1
fi
# Self-test: a planted out-of-bounds write must show in Oclgrind's log,
# or every clean run above passed only because its reports went unseen.
if [ -n "$SELF_TEST" ]; then
  rm -f "$LOG"
  KS_TEST_PLANT_OOB=1 oclgrind --log "$LOG" --data-races --uninitialized --check-api "$BIN" \
    -p /runtime/planted-oob >/dev/null 2>&1
  if grep -q -E 'Invalid (write|read)' "$LOG" 2>/dev/null; then
    echo "ok - self-test: Oclgrind reports a planted out-of-bounds write"
  else
    echo "not ok - self-test: Oclgrind reports a planted out-of-bounds write (no \"Invalid write\" in its log)"
    FAILED=1
  fi
fi
PLANNED=$(grep -c -E '^(not )?ok ' "$T/out")
CHECKS=2
[ -n "$SELF_TEST" ] && CHECKS=3
echo "1..$((PLANNED + CHECKS))"
[ "$FAILED" -eq 0 ]
