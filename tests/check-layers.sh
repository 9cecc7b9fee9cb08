#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The layers of src/ (the picture under the README's "Layout") checked on
# the #include lines: every quoted include of a file under src/ must name a
# header of the including file's own layer or of one the layer may use (gui
# and cli beside each other: neither includes the other).  The per-layer include
# directories of the build already refuse most upward includes; this also
# catches a header that happens to be reachable (an include directory added
# for another reason, a copy in the wrong folder).
#
# Usage: check-layers.sh SRC_DIR        (exit 0: clean, 1: a violation)
#        check-layers.sh --self-test SRC_DIR
#   the self-test plants an upward include in a copy of SRC_DIR and checks
#   that the check fails on it, so the check itself cannot pass vacuously.
set -u

# layer: the layers its files may include (its own first).
allowed () {
  case $1 in
    compute)     echo "compute" ;;
    io)          echo "io" ;;
    mesh)        echo "mesh" ;;
    baselines)   echo "baselines compute" ;;
    solvers)     echo "solvers compute io baselines mesh" ;;
    experiments) echo "experiments solvers baselines compute io mesh plot" ;;
    plot)        echo "plot" ;;
    cli)         echo "cli experiments solvers baselines compute io mesh plot" ;;
    gui)         echo "gui experiments solvers baselines compute io mesh plot" ;;
    *)           echo "" ;;
  esac
}

# The layer of a file under SRC: its folder under SRC (a layer's own
# subfolders, experiments/framework and the like, are of that layer).
layer_of () {
  local rel=${1#"$SRC"/}
  echo "${rel%%/*}"
}

check () {
  SRC=$1
  local bad=0 files=0 file layer inc target tlayer ok
  declare -A home=()

  while IFS= read -r file; do
    home[$(basename "$file")]=$(layer_of "$file")
  done < <(find "$SRC" -mindepth 2 -name '*.h' | sort)
  if [ ${#home[@]} -eq 0 ]; then
    echo "not ok - no headers under $SRC (wrong folder?)"
    return 1
  fi
  while IFS= read -r file; do
    layer=$(layer_of "$file")
    if [ -z "$(allowed "$layer")" ]; then
      echo "not ok - $file: folder $layer is not a known layer; add it to $0"
      bad=1
      continue
    fi
    files=$((files + 1))
    while IFS= read -r inc; do
      target=${home[$inc]:-}
      [ -n "$target" ] || continue   # a system or generated header
      tlayer=$target
      ok=0
      for l in $(allowed "$layer"); do
        [ "$l" = "$tlayer" ] && ok=1
      done
      if [ $ok -eq 0 ]; then
        echo "not ok - ${file#"$SRC"/} ($layer) includes $inc ($tlayer): $layer may use only $(allowed "$layer")"
        bad=1
      fi
    done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$file")
  done < <(find "$SRC" -mindepth 2 -name '*.[ch]' | sort)
  [ $bad -eq 0 ] && echo "ok - $files files under $SRC include only their own or lower layers"
  return $bad
}

if [ "${1:-}" = --self-test ]; then
  SRC_DIR=${2:?usage: $0 --self-test SRC_DIR}
  T=$(mktemp -d "${TMPDIR:-/tmp}/ks-layers.XXXXXX") || exit 1
  trap 'rm -rf "$T"' EXIT
  cp -R "$SRC_DIR" "$T/src"
  # compute may not know about solvers: plant that include.
  printf '#include "ks-gauss.h"\n' >> "$T/src/compute/ks-types.c"
  if check "$T/src" >/dev/null; then
    echo "not ok - self-test: compute including ks-gauss.h (solvers) was not refused"
    exit 1
  fi
  echo "ok - self-test: compute including ks-gauss.h (solvers) is refused"
  exit 0
fi

check "${1:?usage: $0 SRC_DIR}"
