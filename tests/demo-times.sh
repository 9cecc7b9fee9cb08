#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# How long each experiment takes with its defaults, as a class would press
# Run: one line per experiment, "ID seconds rc", then the slowest.  The
# README's table of demo times comes from this (on an idle machine: the
# times are wall-clock seconds, and load stretches them).
#
# Usage: tests/demo-times.sh [CLI] [DEVICE]
#   CLI defaults to build/src/cli/kernelscope-cli, DEVICE to pocl (PoCL,
#   the CPU OpenCL device every machine has); each run is cut at 120 s.
set -u
CLI=${1:-build/src/cli/kernelscope-cli}
DEVICE=${2:-pocl}
[ -x "$CLI" ] || { echo "usage: $0 [path/to/kernelscope-cli] [device]" >&2; exit 2; }
slowest=0
for id in $("$CLI" list | awk '/^  [a-z]/ {print $1}'); do
  start=$(date +%s.%N)
  timeout 120 "$CLI" run "$id" -d "$DEVICE" --no-table -q >/dev/null 2>&1
  rc=$?
  secs=$(echo "$(date +%s.%N) - $start" | bc)
  printf '%-16s %6.1f s  rc %d\n' "$id" "$secs" "$rc"
  slowest=$(echo "if ($secs > $slowest) $secs else $slowest" | bc)
done
printf 'slowest: %.1f s\n' "$slowest"
