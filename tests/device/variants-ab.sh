#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A/B of kernel variants on the GPU machine, in one device call after
# tests/device/pack.sh:
#   source .devcarry/env.sh && tests/device/variants-ab.sh OUT_DIR 'CMD' NAME=SED ...
# Each NAME=SED makes a copy of kernels/ with the sed script SED applied
# (to every .cl, .h and .cu file; "NAME=" alone: kernels/ as they are; a
# copy the script leaves unchanged is refused; NAME=@DIR: the kernels in
# DIR as they are, e.g. another commit's, written by `git archive COMMIT
# kernels | tar -x -C DIR --strip-components=1` before packing, carried
# under .devcarry/), then CMD runs over every
# copy ROUNDS times (default 2, interleaved) with --kernel-dir COPY
# appended; its env prefix may set knobs (KS_...=v CMD).  Prints the lines
# of each log matching ROWS (an ERE, default: a bench table's rows).
# e.g. tests/device/variants-ab.sh "$OUT/ab" 'kernelscope-cli bench tridiag -d cuda:0 --n 4095
#   --systems 40000 --method thomas-split --reps 5' base= \
#   first='s/^#define KS_SPLIT_STAGE_FIRST 0$/#define KS_SPLIT_STAGE_FIRST 1/'
set -u
OUT=${1:?usage: $0 OUT_DIR CMD NAME=SED...}
CMD=${2:?usage: $0 OUT_DIR CMD NAME=SED...}
shift 2
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
root=$(mktemp -d "${TMPDIR:-/tmp}/variants.XXXXXX")
names=()
for spec in "$@"; do
  name=${spec%%=*} script=${spec#*=}
  mkdir -p "$root/$name"
  if [ "${script#@}" != "$script" ]; then
    cp "${script#@}"/*.cl "${script#@}"/*.h "${script#@}"/*.cu "$root/$name/" || exit 1
    names+=("$name")
    continue
  fi
  cp kernels/*.cl kernels/*.h kernels/*.cu "$root/$name/"
  if [ -n "$script" ]; then
    sed -i -e "$script" "$root/$name"/*.cl "$root/$name"/*.h "$root/$name"/*.cu
    changed=0
    for f in kernels/*.cl kernels/*.h kernels/*.cu; do
      cmp -s "$f" "$root/$name/${f#kernels/}" || changed=1
    done
    [ $changed = 1 ] || { echo "variant $name: the script changed nothing"; exit 1; }
  fi
  names+=("$name")
done
status=0
for round in $(seq "${ROUNDS:-2}"); do
  for name in "${names[@]}"; do
    echo "## round $round, $name"
    eval "$CMD --kernel-dir '$root/$name'" > "$OUT/$name-$round.log" 2>&1 || { status=1; echo "## failed"; }
    grep -E "${ROWS:-^ +[0-9]+ [a-z]|^ +(tuned|kernels|cub|cublas) }" "$OUT/$name-$round.log"
  done
done
exit $status
