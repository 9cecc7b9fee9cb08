#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Registers, spills and shared memory of a kernels/ file as NVCC builds it
# for one architecture, here, before any device call (the CUDA toolkit is
# on this machine; NVRTC on the device gives the same counts).  Usage:
#   tests/device/nvcc-resources.sh FILE.cl [ARCH] [-DKS_REAL=float ...]
# e.g. tests/device/nvcc-resources.sh tridiag-split.cl sm_90 -DKS_REAL=float -DKS_SPLIT_M=16 -DKS_SPLIT_STREAM
set -euo pipefail
cd "$(dirname "$0")/../.."
FILE=${1:?usage: $0 FILE.cl [ARCH] [OPTIONS...]}
ARCH=${2:-sm_90}
shift $(( $# >= 2 ? 2 : 1 ))
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
T=$(mktemp -d "${TMPDIR:-/tmp}/ks-nvcc.XXXXXX")
trap 'rm -rf "$T"' EXIT
printf '#include "cuda-prelude.h"\n#include "%s"\n' "$(basename "$FILE")" > "$T/k.cu"
"$NVCC" -arch="$ARCH" -DKS_CUDA=1 "$@" -I kernels -x cu -c "$T/k.cu" -o "$T/k.o" -Xptxas -v 2>&1 |
  grep -E "error|warning|entry function|spill|registers"
