#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/test-runtime.c (and its neighbours test-runtime-buffers, -queues
# and -programs) under Oclgrind: every item of the runtime seam
# (local-memory reduction, pinned map/unmap, copy and fill, views, two
# queues with an event, a 3D launch at an offset, the shared header, timed
# transfers) on Oclgrind's simulator, which reports out-of-bounds accesses,
# data races (the reduction's barriers), uninitialised reads and API misuse.
# Its reports, from every case's OpenCL context (oclgrind-log.sh says why
# that needs a FIFO), go to a log of their own, which must stay empty.
# Skipped (77) where oclgrind is not installed.
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
. "$(dirname "$0")/oclgrind-log.sh"
T=$(mktemp -d "${TMPDIR:-/tmp}/ks-test-runtime-oclgrind.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
LOG=$T/oclgrind.log
CHECKS=(--data-races --uninitialized --check-api)

# Oclgrind's --uninitialized loses a buffer's state on a host store that
# does not cover the whole buffer from its start: Uninitialized::
# hostMemoryStore gives the buffer a fresh shadow of the store's size
# (ShadowMemory::allocate drops the old one) and drops a store that lies
# past it, so the rest of the buffer reads as never written, even after a
# kernel wrote it (Oclgrind 21.10, and so on its master).  A fill stores its
# pattern one piece at a time: a filled buffer reads as unwritten too.  The
# cases zero their buffers with one whole write where they can; these make
# such stores on purpose (a write into a view, a fill on a view, chunked
# uploads), so each runs on its own below instead, as "CASE KERNEL".
case $(basename "$BIN") in
  test-runtime-buffers) EXCUSED=("view rt_scale" "lifetimes rt_touch") ;;
  test-runtime-queues)  EXCUSED=("timers rt_scale") ;;
  # The tridiagonal solver zeroes x, its work buffers and info with
  # ks_queue_fill (src/solvers/ks-tridiag.c), so every sweep that reads back
  # what it wrote itself reads as unwritten (thomas_global's backward sweep
  # first): --uninitialized cannot check it at all, the other checks can.
  # (They found the staged kernels' global copies fenced by local barriers,
  # and the zero-pivot reports racing on info[]: both fixed.)
  test-tridiag)         EXCUSED=(); CHECKS=(--data-races --check-api) ;;
  *)                    EXCUSED=() ;;
esac
SKIPS=()
for e in "${EXCUSED[@]}"; do
  SKIPS+=(-s "/runtime/opencl:0:0/${e%% *}")
done

oclgrind_logged "$LOG" "${CHECKS[@]}" "$BIN" --tap "${SKIPS[@]}" >"$T/out" 2>"$T/err"
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
# Each excused case alone: with --uninitialized off its log must stay
# empty (out of bounds, races, API), and with it on the log may hold that
# one report from that one kernel, and Oclgrind's notice that it stopped
# reporting after 1000.
EXTRA=0
for e in "${EXCUSED[@]}"; do
  CASE=/runtime/opencl:0:0/${e%% *}
  KERNEL=${e#* }
  oclgrind_logged "$LOG" --data-races --check-api "$BIN" --tap -p "$CASE" >"$T/case-out" 2>&1
  if [ $? -eq 0 ] && grep -q "^ok .* $CASE\$" "$T/case-out" && [ ! -s "$LOG" ]; then
    echo "ok - $CASE alone: Oclgrind reported nothing without --uninitialized"
  else
    echo "not ok - $CASE alone: Oclgrind reported nothing without --uninitialized"
    head -n 40 "$LOG" "$T/case-out" | sed 's/^/#   /'
    FAILED=1
  fi
  oclgrind_logged "$LOG" "${CHECKS[@]}" "$BIN" --tap -p "$CASE" >"$T/case-out" 2>&1
  CASE_RC=$?
  # Reports are paragraphs: the message, then a tab and the kernel.
  OTHER=$(awk -v k="$KERNEL" 'BEGIN { RS = "" }
    !(/^Uninitialized value written to global memory address 0x[0-9a-f]+\n\tKernel: / && $0 ~ "\tKernel: " k "\n") &&
    !/^Oclgrind: 1000 errors generated - suppressing further errors$/ { print; print "" }' "$LOG")
  if [ "$CASE_RC" -eq 0 ] && grep -q "^ok .* $CASE\$" "$T/case-out" && [ -z "$OTHER" ]; then
    echo "ok - $CASE alone: Oclgrind reported only the uninitialised writes of $KERNEL it cannot track"
  else
    echo "not ok - $CASE alone: Oclgrind reported only the uninitialised writes of $KERNEL it cannot track"
    printf '%s\n' "$OTHER" | head -n 40 | sed 's/^/#   /'
    FAILED=1
  fi
  [ -s "$LOG" ] || echo "# $CASE reported nothing with --uninitialized: its excuse above can go"
  EXTRA=$((EXTRA + 2))
done
# Self-test: a planted out-of-bounds write must show in Oclgrind's log,
# or every clean run above passed only because its reports went unseen.
# The planted case runs first (GLib runs a suite's cases before its
# subsuites), then a clean case in a context of its own: a log that kept
# only the last context's reports (plain --log FILE) would come out empty.
if [ -n "$SELF_TEST" ]; then
  KS_TEST_PLANT_OOB=1 oclgrind_logged "$LOG" "${CHECKS[@]}" "$BIN" --tap \
    -p /runtime/planted-oob -p /runtime/opencl:0:0/reduction >"$T/self-out" 2>&1
  ORDER=$(grep -o -E '^(not )?ok [0-9]+ /runtime/(planted-oob|opencl:0:0/reduction)' "$T/self-out" |
          sed 's/.* //' | tr '\n' ' ')
  if [ "$ORDER" = "/runtime/planted-oob /runtime/opencl:0:0/reduction " ]; then
    echo "ok - self-test: the planted case ran first, a clean case after it"
  else
    echo "not ok - self-test: the planted case ran first, a clean case after it (ran: $ORDER)"
    FAILED=1
  fi
  if grep -q -E 'Invalid (write|read)' "$LOG" 2>/dev/null; then
    echo "ok - self-test: Oclgrind reports a planted out-of-bounds write followed by another context"
  else
    echo "not ok - self-test: Oclgrind reports a planted out-of-bounds write followed by another context (no \"Invalid write\" in its log)"
    FAILED=1
  fi
fi
PLANNED=$(grep -c -E '^(not )?ok ' "$T/out")
N_CHECKS=2
[ -n "$SELF_TEST" ] && N_CHECKS=4
echo "1..$((PLANNED + N_CHECKS + EXTRA))"
[ "$FAILED" -eq 0 ]
