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
  cp -r "$root/src" "$root/ui" "$tmp/" && cp "$root/po/POTFILES.in" "$root/po/ru.po" "$tmp/po/"
  check "$tmp" >/dev/null || { echo "self-test: the check fails on the untouched copy"; exit 1; }
  printf '%s\n' '#include <glib/gi18n.h>' 'const char *s (void) { return _("planted"); }' > "$tmp/src/ks-planted.c"
  if check "$tmp" >/dev/null; then echo "self-test: a file left out of POTFILES.in passed"; exit 1; fi
  rm "$tmp/src/ks-planted.c"
  printf '%s\n' 'x = _("%" G_GSIZE_FORMAT " bytes");' >> "$tmp/src/cli/ks-cli.c"
  if check "$tmp" >/dev/null; then echo "self-test: a macro in a message passed"; exit 1; fi
  echo "self-test: both planted defects caught"
  exit 0
fi
check "${1:?usage: $0 [--self-test] SOURCE_ROOT}"
