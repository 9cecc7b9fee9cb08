#!/bin/sh
# tools/ks-convert-format1 turns a format-1 run (tests/format1/) into the
# very format-2 file, and CSV, that data/reference holds for it, and
# leaves a format-2 file as it is.
set -eu
tool=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cp "$src/tests/format1/h200-cuda-fig5-wg1.json" "$dir/run.json"
: > "$dir/run.csv"
"$tool" "$dir/run.json" > "$dir/out"
grep -q "run.json: 2 points, format 2" "$dir/out"
cmp "$dir/run.json" "$src/data/reference/h200-cuda-fig5-wg1.json"
cmp "$dir/run.csv" "$src/data/reference/h200-cuda-fig5-wg1.csv"
"$tool" "$dir/run.json" 2> "$dir/err"
grep -q "not format 1, left as it is" "$dir/err"
cmp "$dir/run.json" "$src/data/reference/h200-cuda-fig5-wg1.json"
echo "ok: converted exactly"
