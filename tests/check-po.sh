#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Translations stay complete: every source or UI file with a translatable
# string is listed in po/POTFILES.in (a file left out has its strings
# dropped as obsolete by the next update-po, and the window falls back to
# English), no message names a printf macro (xgettext cannot expand
# G_GSIZE_FORMAT and cuts the message there), and po/ru.po has no
# untranslated or fuzzy message.
#
# Usage: check-po.sh SOURCE_ROOT             (exit 0: clean, 1: a defect)
#        check-po.sh --self-test SOURCE_ROOT
#   the self-test breaks a copy (a file left out of POTFILES.in, a macro in
#   a message) and checks that the check fails on each.
set -u

check () {
  local root=$1 status=0 f
  # .c and .ui files: headers name N_() in comments only.
  while IFS= read -r f; do
    grep -qxF "$f" "$root/po/POTFILES.in" || { echo "not in po/POTFILES.in: $f"; status=1; }
  done < <(cd "$root" && grep -rlE --include='*.c' --include='*.ui' '(^|[^A-Za-z0-9_])N?_\("|translatable="yes"' src ui | sort)
  if grep -rnE '(^|[^A-Za-z0-9_])N?_\("[^"]*" *(G_G[A-Z0-9]*_FORMAT|PRI[a-z0-9]+)' "$root/src"; then
    echo "a printf macro inside a translatable message (above): xgettext cuts it there"
    status=1
  fi
  # Every message the sources have is in po/ru.po: a string added to the
  # code and not to ru.po shows in English in the Russian window, and
  # nothing else says so (xgettext with meson's glib preset keywords).
  if command -v xgettext >/dev/null && command -v msgcmp >/dev/null; then
    local pot missing
    pot=$(mktemp)
    if ! (cd "$root" && xgettext --from-code=UTF-8 --keyword=_ --keyword=N_ --keyword=C_:1c,2 --keyword=NC_:1c,2 \
            --keyword=g_dcgettext:2 --keyword=g_dngettext:2,3 --keyword=g_dpgettext2:2c,3 \
            -f po/POTFILES.in -o "$pot" 2>/dev/null); then
      echo "xgettext could not read the files po/POTFILES.in names"
      status=1
    fi
    missing=$(msgcmp "$root/po/ru.po" "$pot" 2>&1 | grep -c "used but not defined" || true)
    if [ "${missing:-0}" -gt 0 ]; then
      echo "po/ru.po: $missing message(s) of the sources missing:"
      msgcmp "$root/po/ru.po" "$pot" 2>&1 | grep -A0 "used but not defined" | sed "s|^$pot|kernelscope.pot|"
      status=1
    fi
    rm -f "$pot"
  fi
  if command -v msgattrib >/dev/null; then
    local open
    open=$(msgattrib --untranslated --no-obsolete "$root/po/ru.po" | grep -c '^msgid ' || true)
    # The header is an empty msgid of its own.
    [ "${open:-0}" -le 1 ] || { echo "po/ru.po: $((open - 1)) untranslated"; status=1; }
    open=$(msgattrib --only-fuzzy --no-obsolete "$root/po/ru.po" | grep -c '^msgid ' || true)
    [ "${open:-0}" -le 1 ] || { echo "po/ru.po: $((open - 1)) fuzzy"; status=1; }
  fi
  return $status
}

if [ "${1:-}" = --self-test ]; then
  root=$2 tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  mkdir -p "$tmp/po"
  mkdir -p "$tmp/data"
  cp -r "$root/src" "$root/ui" "$tmp/" && cp "$root/po/POTFILES.in" "$root/po/ru.po" "$tmp/po/" &&
    grep '^data/' "$root/po/POTFILES.in" | while read -r f; do cp "$root/$f" "$tmp/$f"; done
  check "$tmp" >/dev/null || { echo "self-test: the check fails on the untouched copy"; exit 1; }
  printf '%s\n' '#include <glib/gi18n.h>' 'const char *s (void) { return _("planted"); }' > "$tmp/src/ks-planted.c"
  if check "$tmp" >/dev/null; then echo "self-test: a file left out of POTFILES.in passed"; exit 1; fi
  rm "$tmp/src/ks-planted.c"
  cp "$root/src/cli/ks-cli.c" "$tmp/ks-cli.c"
  printf '%s\n' 'x = _("%" G_GSIZE_FORMAT " bytes");' >> "$tmp/src/cli/ks-cli.c"
  if check "$tmp" >/dev/null; then echo "self-test: a macro in a message passed"; exit 1; fi
  cp "$tmp/ks-cli.c" "$tmp/src/cli/ks-cli.c"
  if command -v xgettext >/dev/null && command -v msgcmp >/dev/null; then
    printf '%s\n' 'static const char *planted = N_("a message po/ru.po lacks");' >> "$tmp/src/cli/ks-cli.c"
    if check "$tmp" >/dev/null; then echo "self-test: a message missing from ru.po passed"; exit 1; fi
  fi
  echo "self-test: the planted defects caught"
  exit 0
fi
check "${1:?usage: $0 [--self-test] SOURCE_ROOT}"
