#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds one libFuzzer target with clang (AddressSanitizer and
# UndefinedBehaviorSanitizer on) and runs it for a while over its seed corpus.
# The project itself builds with gcc, which has no libFuzzer, so the target
# is compiled here from the reader's own sources; without clang or its
# fuzzer runtime (Debian: clang, libclang-rt-14-dev) it is skipped, saying so.
#
# Usage: run-fuzz.sh SOURCE_ROOT WORK_DIR TARGET [SECONDS]
#   TARGET: mtx (Matrix Market reader), msh (Gmsh reader), msh-gen (the Gmsh
#           reader on large generated meshes), part (partition files), run-json (results reader) and
#           session (session reader): these two built by meson with clang, see
#           tests/meson.build; FUZZ_BIN names it
#   KS_FUZZ_SECONDS, where set, overrides SECONDS (the suite gives each
#   target its share of CI); both unset: 60.  For a longer campaign:
#     tests/fuzz/run-fuzz.sh . /tmp/fuzz mtx 3600
#   New inputs the fuzzer finds go to WORK_DIR/corpus-TARGET (kept between
#   runs); a crash is written to WORK_DIR/crash-* and printed.
set -u
SRC=${1:?usage: $0 SOURCE_ROOT WORK_DIR TARGET [SECONDS]}
WORK=${2:?usage}
TARGET=${3:?usage}
SECONDS_TO_RUN=${KS_FUZZ_SECONDS:-${4:-60}}
SRC=$(cd "$SRC" && pwd)

MAX_LEN=4096
SEEDS=("$SRC/tests/fuzz/corpus-$TARGET")
case "$TARGET" in
  mtx) SOURCES=("$SRC/tests/fuzz/fuzz-mtx.c" "$SRC/src/io/ks-mtx.c" "$SRC/src/io/ks-mtx-write.c" "$SRC/src/io/ks-io-file.c" "$SRC/src/io/ks-io-output.c"); INCLUDES=(-I"$SRC/src/io"); PKGS=(gio-2.0) ;;
  msh) SOURCES=("$SRC/tests/fuzz/fuzz-msh.c" "$SRC/src/mesh/ks-msh.c" "$SRC/src/mesh/ks-msh-binary.c" "$SRC/src/mesh/ks-msh-flat.c" "$SRC/src/mesh/ks-mesh.c" "$SRC/src/mesh/ks-mesh-check.c"); INCLUDES=(-I"$SRC/src/mesh"); PKGS=(gio-2.0) ;;
  # Large meshes (fans, strips) from a few bytes of parameters: inputs are
  # short, the meshes up to 25,000 cells (tests/fuzz/msh-gen.h).
  msh-gen) SOURCES=("$SRC/tests/fuzz/fuzz-msh-gen.c" "$SRC/tests/fuzz/msh-gen.c" "$SRC/src/mesh/ks-msh.c" "$SRC/src/mesh/ks-msh-binary.c" "$SRC/src/mesh/ks-msh-flat.c" "$SRC/src/mesh/ks-mesh.c" "$SRC/src/mesh/ks-mesh-check.c"); INCLUDES=(-I"$SRC/src/mesh"); PKGS=(gio-2.0); MAX_LEN=16 ;;
  part) SOURCES=("$SRC/tests/fuzz/fuzz-part.c" "$SRC/src/io/ks-part-file.c" "$SRC/src/io/ks-io-file.c" "$SRC/src/io/ks-io-output.c"); INCLUDES=(-I"$SRC/src/io"); PKGS=(gio-2.0) ;;
  # The results reader needs most of the experiments layer: meson builds it
  # in a clang build folder (tests/meson.build, fuzz-run-json-libfuzzer) and
  # passes it as FUZZ_BIN.  Recorded runs are several kilobytes.
  run-json) SOURCES=(); MAX_LEN=65536; SEEDS=("$SRC/tests/fuzz-corpus/run-json" "$SRC/data/reference") ;;
  # The session reader, likewise built by meson (fuzz-session-libfuzzer).
  # Its seeds are sessions the window saved, up to about 20 kB.
  session) SOURCES=(); MAX_LEN=65536; SEEDS=("$SRC/tests/fuzz-corpus/session") ;;
  *) echo "not ok 1 - unknown fuzz target $TARGET"; exit 1 ;;
esac

mkdir -p "$WORK/corpus-$TARGET"
if [ ${#SOURCES[@]} -eq 0 ]; then
  BIN=${FUZZ_BIN:?fuzz-$TARGET is built by meson: FUZZ_BIN names it}
else
  CC=${FUZZ_CC:-clang}
  if ! command -v "$CC" >/dev/null; then
    echo "ok 1 - fuzz-$TARGET # SKIP $CC is not installed"; exit 0
  fi
  BIN="$WORK/fuzz-$TARGET"
  # shellcheck disable=SC2046
  if ! "$CC" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -DGETTEXT_PACKAGE=\"kernelscope\" \
       "${INCLUDES[@]}" "${SOURCES[@]}" $(pkg-config --cflags --libs "${PKGS[@]}") -lm \
       -o "$BIN" 2>"$WORK/build-$TARGET.log"; then
    if grep -qiE "libclang_rt\.fuzzer|cannot find .*fuzzer|unsupported option '-fsanitize=fuzzer" "$WORK/build-$TARGET.log"; then
      echo "ok 1 - fuzz-$TARGET # SKIP $CC has no libFuzzer runtime (install libclang-rt-dev)"; exit 0
    fi
    echo "not ok 1 - fuzz-$TARGET does not build"; sed 's/^/# /' "$WORK/build-$TARGET.log"; exit 1
  fi
fi

# GLib's own one-off allocations (type system, quarks) are not leaks of ours.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
log="$WORK/fuzz-$TARGET.log"
cd "$WORK" || exit 1
if "$BIN" -max_total_time="$SECONDS_TO_RUN" -max_len="$MAX_LEN" -timeout=10 -rss_limit_mb=2048 \
     -print_final_stats=1 "$WORK/corpus-$TARGET" "${SEEDS[@]}" >"$log" 2>&1; then
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  echo "ok 1 - fuzz-$TARGET: ${runs:-?} inputs in $SECONDS_TO_RUN s, no crash, leak or undefined behaviour"
else
  # Meson's console shows a failed test's stderr only: the libFuzzer report
  # and the input go there too, so CI's log says what was found.
  {
    echo "not ok 1 - fuzz-$TARGET found a failing input"
    tail -n 60 "$log" | sed 's/^/# /'
    for c in "$WORK"/crash-* "$WORK"/leak-* "$WORK"/timeout-* "$WORK"/oom-* "$WORK"/slow-unit-*; do
      [ -f "$c" ] && echo "# input: $c (base64: $(base64 -w0 < "$c" | head -c 6000))"
    done
  } | tee /dev/stderr
  exit 1
fi
