#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# One command from a fresh Debian/Ubuntu machine to a running Kernelscope:
#   ./setup.sh run     install what is missing, build, start the app (or, with
#                      no display or with --cli, run the CLI demo experiment)
#   ./setup.sh test    install what is missing, build, run every test
# Each step says what it does; nothing is installed that is already there.
set -euo pipefail
cd "$(dirname "$0")"

# Distribution packages: the build tools, GLib/json-glib, cairo/pango for the
# plots, the OpenCL loader and headers, PoCL (the CPU OpenCL device every
# machine has), OpenMP (part of gcc), LAPACKE over OpenBLAS (the host baseline
# of "bench gauss"); GTK 3 and its icons for the desktop app, gettext for the
# translations, and the validators of the desktop file, metainfo and settings
# schema; GStreamer and its base, good and ugly plugins for the heat page's
# clips as WebM (VP8) and MP4 (x264) beside the GIF (optional: without them
# the GIF stays).  The tests add Oclgrind, python3, Xvfb (the GUI tests drive the
# real window through an X server), dbus-daemon (dbus-run-session: the
# quit-mid-run test drives the app's actions over its own session bus) and
# locales (the Matrix Market test builds de_DE into its own folder, to read
# and write numbers under a decimal comma), clang with its sanitizer and
# libFuzzer runtimes (the fuzz targets of tests/fuzz), and poppler-utils and
# librsvg2-bin (pdftoppm and rsvg-convert: the plot tests render the PDFs and
# SVGs they export).
# The CUDA toolkit is optional and not installed here: meson finds it
# through nvcc.
PACKAGES=(meson ninja-build pkg-config gcc libc6-dev
          libglib2.0-dev libglib2.0-bin libjson-glib-dev libcairo2-dev libpango1.0-dev
          ocl-icd-opencl-dev opencl-headers pocl-opencl-icd fonts-dejavu-core
          liblapacke-dev libopenblas-dev libmetis-dev libopenmpi-dev openmpi-bin
          libgtk-3-dev adwaita-icon-theme librsvg2-common gettext libgif-dev
          desktop-file-utils appstream
          libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev gstreamer1.0-plugins-base
          gstreamer1.0-plugins-good gstreamer1.0-plugins-ugly)
# gmsh: test-mesh meshes a .geo file with it (and checks the message without it).
TEST_PACKAGES=(oclgrind python3 xvfb xauth dbus-daemon locales clang libclang-rt-dev poppler-utils librsvg2-bin gmsh)
BUILD_DIR=${BUILD_DIR:-build}

install_packages () {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "==> Installing: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

build () {
  if [ ! -f "$BUILD_DIR/build.ninja" ]; then
    echo "==> Configuring in $BUILD_DIR"
    meson setup "$BUILD_DIR" -Dgui=true -Dtests=true >/dev/null
  else
    meson configure "$BUILD_DIR" -Dgui=true -Dtests=true >/dev/null
  fi
  echo "==> Building"
  ninja -C "$BUILD_DIR" >/dev/null
}

case "${1:-run}" in
  run)
    install_packages "${PACKAGES[@]}"
    build
    if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ "${2:-}" != "--cli" ]; then
      echo "==> Starting Kernelscope ($BUILD_DIR/src/gui/kernelscope)"
      exec "$BUILD_DIR/src/gui/kernelscope"
    fi
    echo "==> No display: the command-line demo instead (the app needs X11 or Wayland)"
    echo "==> kernelscope-cli devices"
    "$BUILD_DIR/src/cli/kernelscope-cli" devices
    echo "==> kernelscope-cli run gauss-size --plot gauss-size.png (Ctrl+C stops and keeps the points)"
    "$BUILD_DIR/src/cli/kernelscope-cli" run gauss-size --no-table --csv gauss-size.csv --plot gauss-size.png
    ;;
  test)
    install_packages "${PACKAGES[@]}" "${TEST_PACKAGES[@]}"
    build
    echo "==> meson test"
    status=0
    meson test -C "$BUILD_DIR" --print-errorlogs --num-processes 2 || status=$?
    logs=("$BUILD_DIR/meson-logs/testlog.json")
    # The headless stack again under AddressSanitizer and
    # UndefinedBehaviorSanitizer (tests/lsan.supp names the third-party leaks
    # it ignores).  The fuzzers are sanitized builds of their own and ran
    # above; Oclgrind cannot run an ASan binary; test-cuda (suite nvrtc) is
    # NVRTC's minute of compiling every kernel, once above is enough.
    # Sanitized code runs a few times slower, hence the longer timeouts.
    # KS_NO_SANITIZE=1 skips it.
    if [ -z "${KS_NO_SANITIZE:-}" ]; then
      asan="$BUILD_DIR-asan"
      echo "==> Sanitizer build in $asan (address, undefined)"
      # It reuses the kernels PoCL compiled for the run above (same
      # sources, same PoCL): a cold cache would double this phase.
      [ -f "$asan/build.ninja" ] ||
        meson setup "$asan" -Dgui=false -Dtests=true -Db_sanitize=address,undefined -Db_lundef=false \
          -Dtest_pocl_cache="$PWD/$BUILD_DIR/tests/pocl-cache" >/dev/null
      ninja -C "$asan" >/dev/null
      echo "==> meson test (sanitizers)"
      meson test -C "$asan" --print-errorlogs --num-processes 2 --timeout-multiplier 4 --no-suite fuzz --no-suite oclgrind --no-suite nvrtc || status=$?
      logs+=("$asan/meson-logs/testlog.json")
    fi
    # The results and session readers under libFuzzer for half a minute each
    # (KS_FUZZ_SECONDS): they link most of the experiments layer, so it is a
    # clang build of its own, of those two targets (about a minute to build
    # on two cores).
    if [ -z "${KS_NO_SANITIZE:-}" ] && command -v clang >/dev/null; then
      fuzz="$BUILD_DIR-fuzz"
      echo "==> libFuzzer build in $fuzz (clang: the results and session readers)"
      [ -f "$fuzz/build.ninja" ] ||
        CC=clang meson setup "$fuzz" -Dgui=false -Dtests=true -Db_sanitize=address,undefined \
          -Dc_args=-fsanitize=fuzzer-no-link -Db_lundef=false >/dev/null
      ninja -C "$fuzz" tests/fuzz-run-json-libfuzzer tests/fuzz-session-libfuzzer >/dev/null
      meson test -C "$fuzz" --no-rebuild --print-errorlogs --suite libfuzzer || status=$?
      logs+=("$fuzz/meson-logs/testlog.json")
    fi
    # Count every check, not every test program: GTest's TAP lines and the
    # shell tests' "ok -" lines, from meson's machine-readable logs.
    python3 - "${logs[@]}" <<'PY'
import json, re, sys
passed = failed = skipped = 0
for log in sys.argv[1:]:
  for line in open(log):
    t = json.loads(line)
    out = t.get("stdout") or ""
    oks = len(re.findall(r"^ok\b(?!.*# SKIP)", out, re.M))
    skips = len(re.findall(r"^ok\b.*# SKIP", out, re.M))
    bad = len(re.findall(r"^not ok\b", out, re.M))
    if oks + bad + skips == 0:
        if t["result"] == "OK": oks = 1
        elif t["result"] == "SKIP": skips = 1
        else: bad = 1
    elif t["result"] not in ("OK", "SKIP") and bad == 0:
        bad = 1   # the program failed outside any check (crash, timeout)
    passed += oks; failed += bad; skipped += skips
print(f"{passed} passed, {failed} failed, {skipped} skipped")
PY
    exit $status
    ;;
  *)
    echo "usage: $0 [run [--cli]|test]" >&2
    exit 2
    ;;
esac
