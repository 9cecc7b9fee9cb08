#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 28 item 7: the one-process hybrid (the heat page's) on one GPU of
# the device machine, against the GPU alone: the issue's own command at 3 M
# cells, then 2^22 and 2^24 cells around lambda_b, kept in data/reference.
# Run on the GPU machine after sourcing .devcarry/env.sh:
#   tests/device/hybrid-overhead.sh OUT_DIR      (QUICK=1: two lambdas at 3 M, three at 16.8 M)
set -u
OUT=${1:?usage: $0 OUT_DIR}
mkdir -p "$OUT"
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | awk '{print tolower($2)}')
export CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-0}
status=0
run () {
  local tag=$1
  shift
  local start
  start=$(date +%s)
  kernelscope-cli run heat-hybrid -d cuda:0 "$@" --reps 3 --json "$OUT/$name-$tag.json" --csv "$OUT/$name-$tag.csv" \
    > "$OUT/$name-$tag.log" 2>&1 || status=1
  echo "== $tag: $(( $(date +%s) - start )) s"
  grep -E '^ +[0-9]|lambda_b =|lambda_opt|Verdict' "$OUT/$name-$tag.log"
}
if [ "${QUICK:-}" = 1 ]; then
  run overhead-3m-quick --cells 3000000 --lambda 40,96
  run hybrid-16m-quick --cells 2^24 --lambda 32,48,96
else
  run overhead-3m --cells 3000000 --lambda 24,40,56,72,96
  run hybrid-4m-16m --cells 2^22,2^24 --lambda 12,16,24,32,48,64,96
fi
exit $status
