#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# kernelscope-cli bench and --overlay, end to end, on what CI has: PoCL and
# host LAPACK.  Methods that need a GPU must appear as skipped with a reason.
# No timing is asserted, only that numbers are there and sane.
#
# Usage: test-bench.sh /abs/path/to/kernelscope-cli
set -u
CLI=${1:?usage: $0 /path/to/kernelscope-cli}
T=$(mktemp -d "${TMPDIR:-/tmp}/ks-test-bench.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$T/pocl-cache}
cd "$T" || exit 1
N=0; FAILED=0

check () {  # description, command...
  N=$((N + 1))
  if "${@:2}" >"$T/out.$N" 2>&1; then echo "ok $N - $1"
  else echo "not ok $N - $1"; sed 's/^/# /' "$T/out.$N"; FAILED=1; fi
}

# bench gauss is "run bench-gauss" (issue 29): the run's table and files.
# Off CUDA the default leaves out what cannot run there, saying so: a
# first run on a laptop refuses nothing (ks_exp_bench_default_methods).
check "bench gauss off CUDA: the default is the methods PoCL runs, and why" bash -c "
  '$CLI' bench gauss -d opencl:0:0 --sizes 24 --reps 1 --warmup 0 --csv d.csv > d.out 2>&1 &&
  grep -q -- '--method kernels,blocked,lapack: the methods this device runs' d.out &&
  python3 -c 'import csv; r = list(csv.DictReader(open(\"d.csv\")))
assert sorted(x[\"method\"] for x in r) == [\"blocked\", \"kernels\", \"lapack\"] and not any(x[\"error\"] for x in r), r'"
check "bench gauss runs on PoCL: the run table, the paper's kernels and LAPACK measured" bash -c "
  '$CLI' bench gauss -d opencl:0:0 --sizes 48,96 --method kernels,graph,blocked,cusolver,lapack --reps 1 \
    --csv b.csv --json b.json >g.out &&
  grep -E '^ +48 +kernels +[0-9.]+ ' g.out && grep -E '^ +96 +lapack +[0-9.]+ ' g.out"
check "off CUDA the graph and cuSOLVER are refused, saying why; the other methods measure" python3 -c '
import json; d = json.load(open("b.json")); p = d["points"]
assert d["experiment"] == "bench-gauss" and d["command"].startswith("kernelscope-cli run bench-gauss"), d
err = {q["method"]: q["error"] for q in p if q["n"] == 48}
assert "runs on CUDA devices; opencl:0:0 is opencl" in err["graph"], err
assert "cuSOLVER runs on CUDA devices" in err["cusolver"], err
ran = [q for q in p if q["error"] is None]
assert {q["method"] for q in ran} == {"kernels", "blocked", "lapack"}, ran
assert all(q["wall_ms"] > 0 and q["residual"] < 1e-3 for q in ran), ran
assert all(abs(q["x_library"] - 1) < 1e-9 for q in ran if q["method"] == "lapack"), ran'
check "--csv has a line per point" python3 -c '
import csv; rows = list(csv.DictReader(open("b.csv"))); assert len(rows) == 10, rows'
check "--json round-trips: plot draws the saved run" bash -c "
  '$CLI' plot b.json -o bg.png && [ -s bg.png ]"
# bench bandwidth and bench launch are "run bench-bandwidth" and "run
# bench-launch" (experiment descriptions, issue 29): the run's table and files.
check "bench bandwidth measures the PoCL device" bash -c "
  '$CLI' bench bandwidth -d pocl --mib 8 --reps 2 -q | grep -E '^ +[0-9.]+ +[0-9.]+ +8 '"
check "bench launch reports launches and a small residual; the graph is skipped with its reason off CUDA" bash -c "
  '$CLI' bench launch -d opencl:0:0 --sizes 20 --reps 1 -q --json bl.json > bl.out &&
  python3 -c '
import json; d = json.load(open(\"bl.json\")); p = d[\"points\"]
assert d[\"experiment\"] == \"bench-launch\" and d[\"command\"].startswith(\"kernelscope-cli run bench-launch\"), d
assert [(q[\"n\"], q[\"method\"]) for q in p] == [(20, \"stream\"), (20, \"graph\")], p
assert p[0][\"launches\"] == 78 and 0 < p[0][\"residual\"] < 1e-3 and p[0][\"error\"] is None, p
# Derived: the cost of one launch, and the stream against itself.
assert abs(p[0][\"us_per_launch\"] - p[0][\"wall_ms\"] * 1000 / 78) < 1e-9 and p[0][\"gain\"] == 1, p
assert p[1][\"error\"] == \"CUDA graphs need a CUDA device; opencl:0:0 is opencl\", p' &&
  grep -E '^ +graph CUDA graphs need a CUDA device' bl.out"
check "bench launch with an unknown device is a usage error that names it" bash -c "
  '$CLI' bench launch -d no-such-device --sizes 20 --reps 1 >u.out 2>u.err; [ \$? -eq 2 ] &&
  grep -q 'no-such-device' u.err && [ ! -s u.out ]"
check "bench launch -d host: refused, the host launches no kernels" bash -c "
  '$CLI' bench launch -d host --sizes 20 --reps 1 >u.out 2>u.err; [ \$? -eq 2 ] &&
  grep -q 'runs on opencl or cuda devices' u.err && [ ! -s u.out ]"
check "bench gauss --help names the graph" bash -c "'$CLI' bench gauss --help | grep -q 'CUDA graph'"
check "bench with an unknown kind is a usage error" bash -c "'$CLI' bench nonsense; [ \$? -eq 2 ]"
check "devices has a CUDA line" bash -c "'$CLI' devices | grep -E '^note: CUDA: .'"
check "plot --list-recorded lists the shipped H200 runs" bash -c "'$CLI' plot --list-recorded | grep -q 'recorded: NVIDIA H200 (CUDA)'"
check "recorded graph and stream runs have different names" bash -c "
  '$CLI' plot --list-recorded > l.out && grep -qE 'h200-cuda-fig2-graph.json .*recorded: NVIDIA H200 \(CUDA graph\)' l.out &&
  grep -qE 'h200-cuda-fig2-driver.json .*recorded: NVIDIA H200 \(CUDA\)$' l.out"
check "run --overlay draws a recorded curve" bash -c "
  '$CLI' run gauss-size -d opencl:0:0 --from 60 --to 64 --reps 1 --warmup 0 -q --no-table \
     --plot o.png --overlay h200-cuda-fig2-driver.json 2>err && grep -q 'Overlay: recorded: NVIDIA H200 (CUDA)' err \
     && [ -s o.png ]"
check "an overlay of another experiment is refused" bash -c "
  '$CLI' run gauss-size -d opencl:0:0 --from 60 --to 61 --reps 1 --warmup 0 -q --no-table \
     --plot p.png --overlay h200-cuda-fig3-wg.json 2>err; [ \$? -eq 2 ] && grep -q 'gauss-wg run' err"
check "--overlay without --plot is refused" bash -c "
  '$CLI' run gauss-size -d opencl:0:0 --from 60 --to 61 --overlay h200-cuda-fig2-driver.json; [ \$? -eq 2 ]"
# Bad input, end to end: exit codes and messages (issue 19).
check "bench bandwidth --mib 2147483647 is refused with the limit and why (it was capped silently)" bash -c "
  '$CLI' bench bandwidth --mib 2147483647 >m.out 2>m.err; [ \$? -eq 2 ] && grep -q 'between 0 and 32767' m.err &&
  '$CLI' bench bandwidth --help | grep -q 'count float4s in an int' && [ ! -s m.out ]"
check "bench bandwidth: a size the device cannot hold is refused there with the device's limit" bash -c "
  '$CLI' bench bandwidth -d pocl --mib 32767 --reps 1 >m2.out 2>&1; [ \$? -eq 1 ] &&
  grep -E 'Arrays of 32767.0 MiB are too large for .*: at most [0-9.]+ MiB each, since' m2.out"
check "bench bandwidth says the size each device used, the device last on each row" bash -c "
  '$CLI' bench bandwidth -d pocl -d host --mib 8 --reps 1 -q --csv s.csv > s.out &&
  grep -E 'mib_each MiB .*device\$' s.out && grep -E ' 8 .* opencl:0:0\$' s.out && grep -E ' 8 .* host\$' s.out &&
  python3 -c '
import csv; rows = list(csv.DictReader(open(\"s.csv\")))
assert [r[\"device\"] for r in rows] == [\"opencl:0:0\", \"host\"], rows
assert all(float(r[\"mib_each\"]) == 8 and float(r[\"triad_gbs\"]) > 0 and float(r[\"copy_gbs\"]) > 0 for r in rows), rows'"
check "bench bandwidth -d host and -d pocl measure that device alone" bash -c "
  '$CLI' bench bandwidth -d host --mib 4 --reps 2 > h.out 2>h.err && grep -q 'Device: .*(host, ' h.err &&
  ! grep -q opencl h.out h.err && '$CLI' bench bandwidth -d pocl --mib 4 --reps 2 > p.out 2>p.err &&
  grep -q 'Device: .*(opencl:0:0, ' p.err && ! grep -q '(host, ' p.err"
check "bench bandwidth -d with an unknown device is refused before anything runs" bash -c "
  '$CLI' bench bandwidth -d nosuchdevice >u.out 2>u.err; [ \$? -eq 2 ] && grep -q 'nosuchdevice' u.err && [ ! -s u.out ]"
check "--reps, --warmup beyond 1000 and --reps 0 are refused with the limit" bash -c "
  '$CLI' bench bandwidth --reps 2147483647 2>r3; [ \$? -eq 2 ] && grep -q 'between 1 and 10000' r3 &&
  '$CLI' bench launch --reps 0 2>r4; [ \$? -eq 2 ] && grep -q 'between 1 and 10000' r4"
# n = 4000 (122.1 MiB in double, 61.1 MiB in float) fits any OpenCL device's own
# limits, so the host's 64 MiB (as the hook says) is what refuses it: with
# n = 50000 a device of less than 19 GiB (PoCL on a small machine) refused it
# first, by its own limit.
for d in opencl:0:0 host; do
  check "solve gauss -n 4000 -d $d is refused before allocating, with the host memory numbers" bash -c "
    KERNELSCOPE_TEST_HOST_MEMORY_AVAILABLE=67108864 '$CLI' solve gauss -q -d $d -n 4000 >h.out 2>h.err; [ \$? -eq 1 ] &&
    grep -E 'n = 4000 needs [0-9.]+ MiB of host memory \(the system in double 122.1 MiB, its copy in float 61.1 MiB.*only 64.0 MiB is available' h.err"
done
printf '%%%%MatrixMarket matrix array real general\n2 2\n1e300\n0\n0\n1e300\n' > big.mtx
printf '%%%%MatrixMarket matrix array real general\n2 2\n1e-50\n0\n0\n1e-50\n' > tiny.mtx
printf '%%%%MatrixMarket matrix array real general\n2 1\n1\n1\n' > rhs.mtx
for d in opencl:0:0 host; do
  check "1e300 in float on $d: overflow named, 'use double', exit 1, no JSON with nan" bash -c "
    rm -f big.json; '$CLI' solve gauss -q -d $d -A big.mtx -b rhs.mtx --json big.json 2>e; [ \$? -eq 1 ] &&
    grep -q 'A(1, 1) = 1e+300 overflows float.*use double (-p double)' e && [ ! -e big.json ] &&
    '$CLI' solve gauss -q -d $d -p double -A big.mtx -b rhs.mtx --json big.json >/dev/null &&
    python3 -c 'import json; json.load(open(\"big.json\"))'"
  check "1e-50 in float on $d: underflow named, not 'singular'" bash -c "
    '$CLI' solve gauss -q -d $d -A tiny.mtx -b rhs.mtx 2>e; [ \$? -eq 1 ] &&
    grep -q 'A(1, 1) = 1e-50 underflows to 0 in float.*use double (-p double)' e && ! grep -q singular e"
done
check "-d '' says the name is empty, not 'more than one device'" bash -c "
  '$CLI' solve gauss -n 4 -d '' 2>e; [ \$? -eq 2 ] && grep -q 'The device name is empty' e && ! grep -q 'more than one' e"
check "-d pocl (the README's example) finds PoCL, whose platform is 'Portable Computing Language'" bash -c "
  '$CLI' solve gauss -n 4 -d pocl 2>e >/dev/null && grep -q 'opencl:0:0' e"
check "devices says why PoCL shows no device when it cannot create its cache" bash -c "
  POCL_CACHE_DIR=/proc/nonexistent/kcache '$CLI' devices > pc.out && ! grep -q 'opencl:0:0' pc.out &&
  grep -E '^note: OpenCL: .*shows no device.*PoCL cannot use its kernel cache /proc/nonexistent/kcache.*POCL_CACHE_DIR=' pc.out"
echo "1..$N"
exit $FAILED
