#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Packs this machine's Open MPI (Debian's openmpi-bin, openmpi-common,
# libopenmpi3, libpmix2 and the libraries they need) into a relocatable
# tree, for a machine that has the NVIDIA driver but no Open MPI (the device
# tool's GPU machines).  Open MPI finds itself through OPAL_PREFIX and PMIx
# through PMIX_PREFIX, so the tree runs from any folder.
#   tests/device/pack-openmpi.sh [OUT]      (default .devcarry/ompi.tar.xz)
# There, with the tarball in the working tree:
#   source tests/device/ompi-env.sh .devcarry/ompi.tar.xz
# unpacks it to /tmp/ompi and sets PATH, LD_LIBRARY_PATH, OPAL_PREFIX,
# PMIX_PREFIX (and lets mpirun run as root, as the device tool's commands do).
# Debian's build is not CUDA-aware (opal_built_with_cuda_support false):
# the halo goes through host buffers, as ks-mpi-exchange.c sends it anyway.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-.devcarry/ompi.tar.xz}
stage=$(mktemp -d); trap 'rm -rf "$stage"' EXIT
root=$stage/ompi
mkdir -p "$root/deps" "$(dirname "$out")"
for pkg in openmpi-bin openmpi-common libopenmpi3 libpmix2; do
  dpkg-query -W "$pkg" >/dev/null 2>&1 || { echo "pack-openmpi: $pkg is not installed (./setup.sh installs it)" >&2; exit 1; }
  dpkg -L "$pkg"
done | sort -u | while read -r f; do
  # Files and links; the manual pages and docs stay behind.
  case $f in /usr/share/man/*|/usr/share/doc/*) continue ;; esac
  if [ -L "$f" ] || [ -f "$f" ]; then mkdir -p "$root$(dirname "$f")" && cp -a "$f" "$root$f"; fi
done
# mpirun is a link through /etc/alternatives: make it point into the tree.
ln -sf orterun "$root/usr/bin/mpirun"
ln -sf orterun "$root/usr/bin/mpiexec"
# Every library the tree's binaries and plugins need that the tree lacks,
# but the C library and the loader (the GPU machine's own are used).
# (ldd fails on the scripts among them: its status is not ours.)
{ find "$root" -type f \( -name '*.so*' -o -perm -u+x \) -print0 | xargs -0 ldd 2>/dev/null || true; } |
  awk '/=>/ && $3 ~ /^\// {print $3}' | sort -u |
  grep -vE '/(libc|libm|libdl|librt|libpthread|libstdc\+\+|libgcc_s|libatomic|ld-linux[^/]*)\.so' |
  while read -r l; do
    # /lib is /usr/lib on Debian: a library the tree has under /usr stays there.
    [ -n "$(find "$root/usr" -name "$(basename "$l")" -print -quit)" ] || cp -L "$l" "$root/deps/"
  done
tar -C "$stage" -cJf "$out" ompi
echo "packed Open MPI $(ompi_info --parsable 2>/dev/null | awk -F: '/^ompi:version:full:/ {print $4}') ($(du -h "$out" | cut -f1)) into $out"
