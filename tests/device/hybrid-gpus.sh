#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Paper 004's Figs. 6-7 and Tables 2-3 with 1, 2, ... GPUs of one host, in
# one call (issues 26 and 32): for each G in GPU_COUNTS, every core a rank
# (G GPU ranks, one per GPU, and CPU ranks of one thread on the others),
# lambda swept around lambda_b on three mesh sizes.  Run on the GPU machine
# after sourcing .devcarry/env.sh and tests/device/ompi-env.sh:
#   tests/device/hybrid-gpus.sh OUT_DIR [GPU_COUNTS] [CELLS] [LAMBDAS]
# Writes OUT_DIR/PREFIX-gG.{json,csv,log}, PREFIX from the GPUs' name, and
# OUT_DIR/PREFIX-topo.txt (nvidia-smi topo -m: NVLink or PCIe between them).
set -u
OUT=${1:?usage: $0 OUT_DIR [GPU_COUNTS] [CELLS] [LAMBDAS]}
GPUS=${2:-1 2}
CELLS=${3:-2^20,2^22,2^24}
LAMBDAS=${4:-4,8,12,16,24,32,48,64,128}
mkdir -p "$OUT"
n_gpus=$(nvidia-smi -L | wc -l)
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | awk '{print tolower($2)}')
prefix="${name:-gpu}x${n_gpus}-mpi"
# RANKS=N: that many ranks (default: every core; 64 ranks starting, probing and
# receiving the system took most of a 10-minute call on the 4-GPU host).
ranks=${RANKS:-$(nproc)}
{ nvidia-smi -L; echo; nvidia-smi topo -m; echo; lscpu | grep -E 'Model name|Socket|Core|NUMA node\(s\)'; } \
  > "$OUT/$prefix-topo.txt" 2>&1
ompi_info --parsable --all 2>/dev/null | grep 'mpi_built_with_cuda_support:value' >> "$OUT/$prefix-topo.txt"
status=0
for g in $GPUS; do
  [ "$g" -le "$n_gpus" ] || { echo "skip G=$g: only $n_gpus GPUs here"; continue; }
  base="$OUT/$prefix-g$g"
  start=$(date +%s)
  mpirun -np "$ranks" --bind-to core -x OMP_NUM_THREADS=1 -x LD_LIBRARY_PATH -x PATH \
    kernelscope-cli run heat-hybrid -d cuda:0 --gpu-ranks "$g" --cells "$CELLS" --lambda "$LAMBDAS" \
    --tol 1e-10 --reps 3 --json "$base.json" --csv "$base.csv" > "$base.log" 2>&1 || status=1
  echo "G=$g: $ranks ranks, $(( $(date +%s) - start )) s, exit $status"
  tail -25 "$base.log"
done
exit $status
