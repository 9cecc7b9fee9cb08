#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 28, item 7: the one-process hybrid under several OpenMP
# environments, with the process's thread count sampled mid-run (libgomp
# spins less before sleeping once it manages more threads than cores:
# the host part's team then sleeps at every wait and is woken at every
# parallel region).  On the GPU machine after sourcing .devcarry/env.sh:
#   tests/device/hybrid-omp.sh OUT_DIR [CELLS] [LAMBDAS] [ENVS...]
# ENVS: "VAR=value[,VAR=value]" per configuration, "def" the plain one.
set -u
OUT=${1:?usage: $0 OUT_DIR [CELLS] [LAMBDAS] [ENVS...]}
CELLS=${2:-3000000}
LAMBDAS=${3:-48,96}
shift $(( $# < 3 ? $# : 3 ))
[ $# -gt 0 ] || set -- def OMP_WAIT_POLICY=ACTIVE GOMP_SPINCOUNT=infinite
mkdir -p "$OUT"
for cfg in "$@"; do
  envs=()
  [ "$cfg" = def ] || IFS=, read -r -a envs <<< "$cfg"
  tag=${cfg//[^A-Za-z0-9]/_}
  # The tune script's own line, and the threads the run had mid-way.
  env "${envs[@]}" REPS=${REPS:-3} "$(dirname "$0")/hybrid-tune.sh" "$OUT/$tag" "$CELLS" "$LAMBDAS" all \
    > "$OUT/$tag.txt" 2>&1 &
  tune=$!
  sleep "${SAMPLE_AFTER:-9}"
  pid=$(pgrep -n -f 'kernelscope-cli run heat-hybrid')
  threads=$( [ -n "$pid" ] && ls "/proc/$pid/task" | wc -l)
  wait "$tune"
  printf '%-32s threads %s: %s\n' "$cfg" "${threads:-?}" "$(grep -m1 'cells:' "$OUT/$tag.txt")"
done
