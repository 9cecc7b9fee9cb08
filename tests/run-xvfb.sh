#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs a GUI test under its own Xvfb server, so tests drive a real X
# display whether or not the machine has one.  Without xvfb-run the test
# still runs and skips itself with a reason.
if command -v xvfb-run >/dev/null 2>&1; then
  exec xvfb-run -a -s "-screen 0 1400x900x24" "$@"
fi
exec "$@"
