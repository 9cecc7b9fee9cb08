#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Paper 004's distributed CG with 1, 2, 3 and 4 MPI ranks on this machine's
# CPU (tests/mpi-cg.c): each gives one process's solution to round-off.
# Usage: test-mpi.sh MPIRUN MPI_CG
set -u
MPIRUN=${1:?usage: $0 MPIRUN MPI_CG}
BIN=${2:?usage}
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
echo "1..4"
status=0
for np in 1 2 3 4; do
  out=$("$MPIRUN" -np "$np" "$BIN" 2>&1)
  rc=$?
  line=$(printf '%s\n' "$out" | grep -E '^(not )?ok' | head -1)
  if [ $rc -eq 0 ] && [[ $line == ok* ]]; then
    echo "ok $np ${line#ok }"
  else
    echo "not ok $np - $np ranks (exit $rc)"
    printf '%s\n' "$out" | sed 's/^/# /' | tail -30
    status=1
  fi
done
exit $status
