#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 28, item 7: what each of the one-process hybrid's coupling changes
# (KS_HYBRID_TUNE, src/solvers/ks-dist-cg.h) gains on one GPU, one at a
# time, in one call.  Run on the GPU machine after sourcing .devcarry/env.sh
# (tests/device/pack.sh builds it):
#   tests/device/hybrid-tune.sh OUT_DIR [CELLS] [LAMBDAS] [VARIANTS]
# CELLS: space-separated mesh sizes (default "3000000 4194304"); LAMBDAS as
# run heat-hybrid takes them; VARIANTS: KS_HYBRID_TUNE values, "none" the
# plain loop (default: none sums overlap host pin all all,pipelined;
# "pipelined" forces the pipelined CG).  Prints one line per variant
# and size: lambda_b, the relative figure at each lambda, the best, the one
# at the lambda nearest lambda_b, and the iteration against what the
# triads predict (the slower part's cells at its triad bandwidth: the GPU
# alone's time scaled, the CPU's from its triad; 1.00 is physics).
# Writes OUT_DIR/tune-VARIANT-CELLS.{csv,log} (commas in VARIANT as _).
set -u
OUT=${1:?usage: $0 OUT_DIR [CELLS] [LAMBDAS] [VARIANTS]}
CELLS=${2:-3000000 4194304}
LAMBDAS=${3:-24,40,56,72,96}
VARIANTS=${4:-none sums overlap host pin all all,pipelined}
DEVICE=${DEVICE:-cuda:0}
REPS=${REPS:-3}
mkdir -p "$OUT"
nvidia-smi -L 2>/dev/null | head -1
echo "$(nproc) cores; OMP_NUM_THREADS=${OMP_NUM_THREADS:-unset} OMP_PROC_BIND=${OMP_PROC_BIND:-unset}"
status=0
for cells in $CELLS; do
  for v in $VARIANTS; do
    base="$OUT/tune-${v//,/_}-$cells"
    start=$(date +%s)
    KS_HYBRID_TUNE=$v kernelscope-cli run heat-hybrid -d "$DEVICE" --cells "$cells" --lambda "$LAMBDAS" \
      --reps "$REPS" --csv "$base.csv" > "$base.log" 2>&1 || status=1
    secs=$(( $(date +%s) - start ))
    # lambda_b and the CPU's triad from the run's own line:
    #   "<dev>: lambda_b = G GB/s / C GB/s = L (...)"
    read -r lb cpu_gbs < <(sed -n 's/.*lambda_b = [0-9.]* GB\/s \/ \([0-9.]*\) GB\/s = \([0-9.]*\).*/\2 \1/p' "$base.log" | head -1)
    [ -s "$base.csv" ] || { printf '%-14s %8s cells: failed (%ss), see %s\n' "$v" "$cells" "$secs" "$base.log"; tail -3 "$base.log"; continue; }
    awk -F, -v v="$v" -v cells="$cells" -v lb="${lb:-nan}" -v cpu="${cpu_gbs:-0}" -v secs="$secs" '
      NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
      $c["error"] != "" { err = err " " $c["lambda"] "=error"; next }
      {
        l = $c["lambda"]; rel = $c["relative"]; us = $c["iteration_us"]
        line = line sprintf(" %s=%.3f", l, rel)
        if (rel > best) { best = rel; best_l = l }
        d = (l - lb) < 0 ? lb - l : l - lb
        if (near == "" || d < near) { near = d; near_rel = rel; near_l = l }
        # bytes per cell and iteration from the run: GB/s x us = kB
        per_cell = $c["bandwidth_gbs"] * 1e3 * us / $c["mesh_cells"]
        gpu_us = $c["gpu_only_us"] * $c["gpu_cells"] / $c["mesh_cells"]
        cpu_us = cpu > 0 ? $c["cpu_cells"] * per_cell / (cpu * 1e3) : 0
        phys = gpu_us > cpu_us ? gpu_us : cpu_us
        x = x sprintf(" %s=%.2f", l, phys > 0 ? us / phys : 0)
        # the share of the host CPU time the hypervisor took (issue 28: runs
        # slowed many times over with the CPU part waited for)
        if ("cpu_steal_pct" in c) steal = steal sprintf(" %s=%s", l, $c["cpu_steal_pct"])
        gpu_alone = $c["gpu_only_us"]
      }
      END {
        printf "%-14s %8s cells: lambda_b %s, GPU alone %.1f us; relative%s%s; best %.3f (lambda %s), nearest lambda_b %.3f (lambda %s); iteration/physics%s; steal %%%s [%ss]\n",
               v, cells, lb, gpu_alone, line, err, best, best_l, near_rel, near_l, x, steal, secs
      }' "$base.csv"
  done
done
exit $status
