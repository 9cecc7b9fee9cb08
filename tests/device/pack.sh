#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the headless binaries here (no GTK on the GPU machine: -Dgui=false,
# in build-dev) and packs them, their libraries and Open MPI into .devcarry/
# for the device tool (carry [".devcarry"]).  On the GPU machine:
#   source .devcarry/env.sh && source tests/device/ompi-env.sh
# then tests/run-gpu-suite.sh /tmp/ks/bin, tests/device/hybrid-gpus.sh, ...
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build-dev}
[ -f "$BUILD/build.ninja" ] || CC="ccache gcc" meson setup "$BUILD" -Dgui=false -Dtests=true >/dev/null
ninja -C "$BUILD" >/dev/null
bins=(src/cli/kernelscope-cli)
for t in test-devices test-runtime test-runtime-buffers test-runtime-queues test-runtime-programs test-cuda \
         test-gauss test-gauss-blocked test-tridiag test-exp-tridiag test-heat test-heat-device test-hybrid test-index test-micro \
         test-experiment mpi-cg; do
  [ -x "$BUILD/tests/$t" ] && bins+=("tests/$t")
done
PACK=${PACK_FOR_DEVICE:-../shared/tools/pack-for-device.sh}
"$PACK" "$BUILD" "${bins[@]}"
tests/device/pack-openmpi.sh .devcarry/ompi.tar.xz
