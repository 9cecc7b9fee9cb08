#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The README's screenshot gallery: every page of the window on a
# 1024 x 768 screen after its default run (the Run button with the form as
# it opens, on the first OpenCL device: PoCL here), in English and in
# Russian, one PNG per page and language (PAGE-en.png, PAGE-ru.png) and an
# index.md listing them.  It is tests/test-gui-pages with
# KERNELSCOPE_GALLERY=1; the same checks run, and a page that does not fit
# is named on the way, but the pictures are taken regardless.  The default
# runs take minutes on a 2-core machine.
#
#   tests/gallery.sh DIR [BUILD_DIR]     (BUILD_DIR: build)
set -u
out=${1:?usage: tests/gallery.sh DIR [BUILD_DIR]}
build=${2:-build}
here=$(cd "$(dirname "$0")" && pwd)
test_program="$build/tests/test-gui-pages"

if [ ! -x "$test_program" ]; then
  echo "gallery.sh: $test_program is missing: build with -Dgui=true -Dtests=true first" >&2
  exit 1
fi
mkdir -p "$out" || exit 1
status=0
for lang in en ru; do
  echo "gallery.sh: $lang ..." >&2
  env KERNELSCOPE_GALLERY=1 KERNELSCOPE_SCREENSHOT_DIR="$out" KS_XVFB_SCREEN=1024x768x24 \
      GSETTINGS_BACKEND=memory NO_AT_BRIDGE=1 POCL_CACHE_DIR="$build/tests/pocl-cache" \
      G_TEST_SRCDIR="$here" G_TEST_BUILDDIR="$build/tests" LANGUAGE="$lang" LANG=C.UTF-8 \
      "$here/run-xvfb.sh" "$test_program" --tap --keep-going > "$out/gallery-$lang.log" 2>&1 || status=1
  grep '^not ok' "$out/gallery-$lang.log" >&2
done

{
  echo "# Every page at 1024 x 768 after its default run"
  echo
  echo "Taken by \`tests/gallery.sh\` on $(date -u +%Y-%m-%d)."
  echo
  echo "| page | English | Russian |"
  echo "|---|---|---|"
  for shot in "$out"/*-en.png; do
    [ -e "$shot" ] || continue
    page=$(basename "$shot" -en.png)
    echo "| $page | ![$page]($page-en.png) | ![$page]($page-ru.png) |"
  done
} > "$out/index.md"
echo "gallery.sh: $out/index.md" >&2
exit $status
