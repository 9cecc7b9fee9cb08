#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs a GUI test under its own Xvfb server, so tests drive a real X
# display whether or not the machine has one.  Without xvfb-run the test
# still runs and skips itself with a reason.  KS_XVFB_SCREEN sets the
# screen (test-gui-pages: a 1024 x 768 projector).
if command -v xvfb-run >/dev/null 2>&1; then
  exec xvfb-run -a -s "-screen 0 ${KS_XVFB_SCREEN:-1400x900x24}" "$@"
fi
exec "$@"
