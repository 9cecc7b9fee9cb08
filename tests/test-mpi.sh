#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Paper 004's distributed CG with 1, 2, 3 and 4 MPI ranks on this machine's
# CPU (tests/mpi-cg.c): each gives one process's solution to round-off.
# Then the same through the hybrid solver's MPI world, also with the
# system on rank 0 alone, which sends each rank its part (a PoCL part on rank
# 0 beside host parts), and kernelscope-cli itself under mpirun: the
# heat-hybrid experiment with one GPU rank, written by rank 0 alone.
# Last, a rank failing alone, and a CLI built without MPI under mpirun.
# Usage: test-mpi.sh MPIRUN MPI_CG [KERNELSCOPE_CLI [CLI_WITHOUT_MPI]]
set -u
MPIRUN=${1:?usage: $0 MPIRUN MPI_CG [CLI]}
BIN=${2:?usage}
CLI=${3:-}
NOMPI=${4:-}
# CI runs as root, and a 2-core machine has fewer slots than 4 ranks.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# No InfiniBand or shared-memory surprises in a container: TCP and self.
export OMPI_MCA_btl=self,tcp OMPI_MCA_btl_tcp_if_include=lo
# Under AddressSanitizer: Open MPI keeps memory until exit in components it
# dlcloses first, so LeakSanitizer sees leaks it cannot name (nor can a
# suppression): leaks are not checked in the ranks.  Memory errors still
# are, and the same CG and exchange code runs leak-checked in-process
# (test-balance /balance/dist-cg).
if [ -n "${KS_SANITIZED:-}" ]; then
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
fi
echo "1..18"
status=0
# One OpenMP thread per rank: the ranks are the parallelism.
export OMP_NUM_THREADS=1
# mpi-cg with np ranks in MODE ("" or hybrid), reported as TAP test number n.
run_cg () {
  local n=$1 np=$2 mode=$3 out rc line
  out=$("$MPIRUN" -np "$np" "$BIN" $mode 2>&1)
  rc=$?
  line=$(printf '%s\n' "$out" | grep -E '^(not )?ok' | head -1)
  if [ $rc -eq 0 ] && [[ $line == ok* ]]; then
    echo "ok $n ${line#ok }"
  else
    echo "not ok $n - ${mode:+$mode, }$np ranks (exit $rc)"
    printf '%s\n' "$out" | sed 's/^/# /' | tail -30
    status=1
  fi
}
for np in 1 2 3 4; do
  run_cg "$np" "$np" ""
done
for np in 1 2 3 4; do
  run_cg "$((np + 4))" "$np" hybrid
done
# The pipelined CG: its one sum per iteration by MPI_Iallreduce behind the SpMV.
run_cg 9 2 pipelined
run_cg 10 4 pipelined
if [ -z "$CLI" ]; then
  echo "ok 11 - kernelscope-cli under mpirun # SKIP no CLI given"
  echo "ok 12 - kernelscope-cli --cg pipelined under mpirun # SKIP no CLI given"
  echo "ok 13 - two GPU ranks on one device # SKIP no CLI given"
  echo "ok 14 - a partition file under mpirun # SKIP no CLI given"
else
  dir=$(mktemp -d)
  # Two meshes: rank 0 builds each and sends it to the others.
  out=$(cd "$dir" && "$MPIRUN" -np 3 "$CLI" run heat-hybrid -d opencl:0:0 --cells 1024,2048 --lambda 1,4 --gpu-ranks 1 \
        --reps 1 --warmup 0 --json hy.json 2>&1)
  rc=$?
  (cd "$dir" && "$CLI" run heat-hybrid -d opencl:0:0 --cells 1024,2048 --lambda 1,4 --reps 1 --warmup 0 \
     --json one.json > one.out 2>&1) || true
  if [ $rc -eq 0 ] && python3 - "$dir/hy.json" "$dir/one.json" <<'PY' && [ "$(printf '%s\n' "$out" | grep -c '^Running heat-hybrid')" = 1 ]
import json, sys
d = json.load(open(sys.argv[1]))
one = {(p["cells"], p["lambda"]): p for p in json.load(open(sys.argv[2]))["points"]}
pts = {(p["cells"], p["lambda"]): p for p in d["points"]}
assert set(pts) == {(1024, 1), (1024, 4), (2048, 1), (2048, 4)}, pts
for (cells, lam), p in pts.items():
    assert p["error"] is None, p
    # formula (5), R_GPU = 1, R_CPU = 2: N_GPU = N lambda / (lambda + 1)
    want = p["mesh_cells"] * lam / (lam + 1)
    assert abs(p["gpu_cells"] - want) <= 1, (p, want)
    assert p["gpu_cells"] + p["cpu_cells"] == p["mesh_cells"], p
    # The system the ranks received is the one a single process builds.
    q = one[(cells, lam)]
    assert q["mesh_cells"] == p["mesh_cells"] and abs(q["iterations"] - p["iterations"]) <= 1, (p, q)
# The CPU side's bandwidth: the CPU ranks' triads together, measured.
assert d["devices"][0]["info"]["cpu_triad_gbs"] > 0, d["devices"][0]
# The recorded command says how the ranks were started.
assert d["command"].startswith("mpirun -np 3 kernelscope-cli run heat-hybrid "), d["command"]
PY
  then
    echo "ok 11 - kernelscope-cli run heat-hybrid under mpirun -np 3 --gpu-ranks 1: formula (5)'s split, one rank reporting"
  else
    echo "not ok 11 - kernelscope-cli run heat-hybrid under mpirun (exit $rc)"
    printf '%s\n' "$out" | sed 's/^/# /' | tail -30
    status=1
  fi
  # The pipelined CG beside the classic one, every rank a CPU part.
  for cg in classic pipelined; do
    (cd "$dir" && "$MPIRUN" -np 2 "$CLI" run heat-hybrid -d opencl:0:0 --cells 1024 --lambda 1 --gpu-ranks 0 \
       --cg $cg --reps 1 --warmup 0 --json $cg.json > $cg.out 2>&1) || true
  done
  if python3 - "$dir/classic.json" "$dir/pipelined.json" <<'PY'
import json, sys
c, p = (json.load(open(f))["points"][0] for f in sys.argv[1:3])
assert c["error"] is None and p["error"] is None, (c, p)
assert c["gpu_cells"] == 0 == p["gpu_cells"], (c, p)
assert abs(c["iterations"] - p["iterations"]) <= 2, (c["iterations"], p["iterations"])
PY
  then
    echo "ok 12 - kernelscope-cli run heat-hybrid --cg pipelined under mpirun -np 2 --gpu-ranks 0: the classic CG's iterations"
  else
    echo "not ok 12 - heat-hybrid --cg pipelined under mpirun"
    sed 's/^/# /' "$dir"/*.out | tail -20
    status=1
  fi
  # Several GPU ranks (issue 18's code path) on one device: refused as the
  # paper's one rank per GPU, run with --ranks-per-gpu 2; the system is the
  # one a single process solves (hy.json's, above).
  (cd "$dir" && "$MPIRUN" -np 4 "$CLI" run heat-hybrid -d opencl:0:0 --cells 1024 --lambda 4 --gpu-ranks 2 \
     --reps 1 --warmup 0 > refused.out 2>&1)
  refused=$?
  (cd "$dir" && "$MPIRUN" -np 4 "$CLI" run heat-hybrid -d opencl:0:0 --cells 1024 --lambda 4 --gpu-ranks 2 \
     --ranks-per-gpu 2 --reps 1 --warmup 0 --json two.json > two.out 2>&1) || true
  if [ $refused -ne 0 ] && grep -q "one GPU rank per GPU" "$dir/refused.out" &&
     python3 - "$dir/two.json" "$dir/one.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
p = d["points"][0]
q = {(r["cells"], r["lambda"]): r for r in json.load(open(sys.argv[2]))["points"]}[(1024, 4)]
assert p["error"] is None, p
# formula (5), R_GPU = 2: each GPU rank N lambda / (2 lambda + 1), the CPU ranks the rest
want = p["mesh_cells"] * 2 * 4 / (2 * 4 + 1)
assert abs(p["gpu_cells"] - want) <= 2 and p["gpu_cells"] + p["cpu_cells"] == p["mesh_cells"], (p, want)
assert abs(p["iterations"] - q["iterations"]) <= 1, (p, q)
# The GPUs alone: the two GPU ranks' own world (MPI_Comm_split), no CPU
# rank in its sums, solving the same system: one process's iterations.
assert p["gpu_only_us"] > 0 and abs(p["gpu_only_iterations"] - q["iterations"]) <= 1, (p, q)
# The bound with two GPUs: 1 + 1 / (2 lambda_b).
info = d["devices"][0]["info"]
assert abs(info["bound"] - (1 + 1 / (2 * info["lambda_b"]))) < 1e-9 * info["bound"], info
PY
  then
    echo "ok 13 - two GPU ranks on one device: refused by default, run with --ranks-per-gpu 2, one process's iterations, the GPUs alone on their own communicator"
  else
    echo "not ok 13 - two GPU ranks on one device (refused: exit $refused)"
    sed 's/^/# /' "$dir"/refused.out "$dir"/two.out | tail -20
    status=1
  fi
  # A partition file under mpirun: the split one run saved (rank 0 writes
  # it), read back by every rank, gives the same parts and iterations; a
  # part past the last rank refuses the point on every rank alike.
  (cd "$dir" && "$MPIRUN" -np 3 "$CLI" run heat-hybrid -d opencl:0:0 --cells 1024 --lambda 4 --gpu-ranks 1 \
     --reps 1 --warmup 0 --json saved.json --save-partition hy.part > saved.out 2>&1) || true
  (cd "$dir" && "$MPIRUN" -np 3 "$CLI" run heat-hybrid -d opencl:0:0 --cells 1024 --partition file \
     --partition-file hy.part --gpu-ranks 1 --reps 1 --warmup 0 --json read.json > read.out 2>&1) || true
  sed '5s/.*/3/' "$dir/hy.part" > "$dir/past.part" 2>/dev/null
  (cd "$dir" && "$MPIRUN" -np 3 "$CLI" run heat-hybrid -d opencl:0:0 --cells 1024 --partition file \
     --partition-file past.part --gpu-ranks 1 --reps 1 --warmup 0 > past.out 2>&1)
  past=$?
  if [ $past -ne 0 ] && grep -q "past.part, line 5: part 3, but the run has 3 parts (0 to 2) (under mpirun part r is rank r's)" \
       "$dir/past.out" && python3 - "$dir/saved.json" "$dir/read.json" "$dir/hy.part" <<'PY'
import json, sys
a, b = (json.load(open(f))["points"][0] for f in sys.argv[1:3])
assert a["error"] is None and b["error"] is None, (a, b)
for k in ("gpu_cells", "cpu_cells", "halo_entries", "iterations"):
    assert a[k] == b[k], (k, a[k], b[k])
parts = [int(l) for l in open(sys.argv[3])]
# Three ranks' parts, rank 0 the GPU's: formula (5)'s counts.
assert len(parts) == a["mesh_cells"] and set(parts) == {0, 1, 2}, set(parts)
assert parts.count(0) == a["gpu_cells"], (parts.count(0), a["gpu_cells"])
PY
  then
    echo "ok 14 - a partition file under mpirun -np 3: saved by rank 0, read back by every rank alike, a part past the last rank refused"
  else
    echo "not ok 14 - a partition file under mpirun (refused: exit $past)"
    sed 's/^/# /' "$dir"/saved.out "$dir"/read.out "$dir"/past.out | tail -30
    status=1
  fi
  rm -rf "$dir"
fi
# TAP test n: COMMAND... (under mpirun) must fail, not hang, and say PATTERN.
expect_stop () {
  local n=$1 what=$2 pattern=$3 out rc
  shift 3
  out=$(timeout 120 "$MPIRUN" "$@" 2>&1)
  rc=$?
  if [ $rc -ne 0 ] && [ $rc -ne 124 ] && printf '%s\n' "$out" | grep -q "$pattern"; then
    echo "ok $n - $what (exit $rc)"
  else
    echo "not ok $n - $what: exit $rc (124: it hung)"
    printf '%s\n' "$out" | sed 's/^/# /' | tail -20
    status=1
  fi
}
# A rank that fails alone ends the job, saying which, rather than leaving
# the others waiting in a sum.
expect_stop 15 "a rank that fails alone stops every rank and says which" \
  "rank 1 failed, stopping every rank: its device was lost" -np 3 "$BIN" abort
if [ -z "$NOMPI" ]; then
  echo "ok 16 - a CLI without MPI under mpirun # SKIP none given"
else
  expect_stop 16 "a kernelscope-cli built without MPI, started by mpirun, says so and stops" \
    "started by mpirun, but this build has no MPI" -np 2 "$NOMPI" devices
fi
# The system on rank 0 alone, each rank sent its part (ks_hybrid_cg_set_system).
run_cg 17 2 hybrid-scatter
run_cg 18 4 hybrid-scatter
exit $status
