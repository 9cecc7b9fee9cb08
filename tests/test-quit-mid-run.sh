#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The real desktop app, quit in the middle of a run, must exit: the run is
# cancelled, the worker returns from the device and the process ends within
# seconds.  (It once stayed alive with no window, held by the run forever.)
#
# The app is started as a user starts it (with a session file to open),
# under an X server (run-xvfb.sh) and its own session bus, and driven through
# its GActions on D-Bus, as a desktop shell or another program may: win.run,
# then app.quit, which closes the window exactly like its close button.
#
# Usage: test-quit-mid-run.sh /abs/path/to/kernelscope        (TAP output)
set -u

APP=${1:-}
if [ -z "$APP" ] || [ ! -x "$APP" ]; then
  echo "usage: $0 /path/to/kernelscope (got \"$APP\", not an executable)" >&2
  exit 1
fi
if [ -z "${DISPLAY:-}" ]; then
  echo "1..0 # SKIP needs an X server (run through run-xvfb.sh)"
  exit 0
fi
for tool in gdbus dbus-run-session timeout; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "1..0 # SKIP $tool is not installed"
    exit 0
  fi
done
# A private session bus, so the app's well-known name is ours alone.
if [ "${KS_TEST_OWN_BUS:-}" != 1 ]; then
  KS_TEST_OWN_BUS=1 exec dbus-run-session -- "$0" "$@"
fi

APP_ID=org.kernelscope.Kernelscope
APP_PATH=/org/kernelscope/Kernelscope
WIN_PATH=$APP_PATH/window/1
# How long a quit may take: the solve in flight finishes first.
EXIT_LIMIT=${KS_TEST_EXIT_LIMIT:-10}

T=$(mktemp -d "${TMPDIR:-/tmp}/ks-test-quit.XXXXXX") || exit 1
PID=
cleanup () {
  if [ -n "$PID" ] && kill -0 "$PID" 2>/dev/null; then
    kill -KILL "$PID" 2>/dev/null
    wait "$PID" 2>/dev/null
  fi
  rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

export GSETTINGS_BACKEND=memory NO_AT_BRIDGE=1
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$T/pocl-cache}
unset KERNELSCOPE_KERNEL_DIR KERNELSCOPE_SIMULATE_DEVICE_LOSS

N=0
FAILED=0
echo "1..3"

call () {   # call PATH METHOD ARGS...: a method of the app on the bus
  local path=$1 method=$2
  shift 2
  timeout 20 gdbus call --session --dest "$APP_ID" --object-path "$path" --method "$method" "$@"
}

wait_until () {   # wait_until SECONDS COMMAND...: polls every 0.2 s
  local limit=$1
  shift
  local end=$(( $(date +%s) + limit ))
  while [ "$(date +%s)" -le "$end" ]; do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  return 1
}

# The window's actions are on the bus once the window exists.
window_on_bus () { call "$WIN_PATH" org.gtk.Actions.Describe run | grep -q '^(('; }
# Stop is enabled exactly while a run is in progress.
running () { call "$WIN_PATH" org.gtk.Actions.Describe stop | grep -q '^((true,'; }
gone () { ! kill -0 "$PID" 2>/dev/null; }

# quit_mid_run NAME PAGE PAGE-STATE: opens a session showing PAGE with
# PAGE-STATE, runs it, quits as soon as it runs, and checks the exit.
quit_mid_run () {
  local name=$1 page=$2 state=$3 start elapsed why= skip=
  N=$((N + 1))
  cat >"$T/session.json" <<EOF
{"format": "kernelscope-session", "version": 1, "page": "$page",
 "pages": {"$page": $state}}
EOF
  "$APP" "$T/session.json" >"$T/log" 2>&1 &
  PID=$!
  if ! wait_until 120 window_on_bus; then
    why="the app's window never appeared on the session bus"
  elif ! call "$WIN_PATH" org.gtk.Actions.Activate run '[]' '{}' >/dev/null; then
    why="win.run could not be activated"
  elif ! wait_until 60 running; then
    why="the run did not start"
  else
    sleep 0.5
    if ! running; then
      skip="the run was over before the quit (a fast device)"
    else
      start=$(date +%s)
      call "$APP_PATH" org.gtk.Actions.Activate quit '[]' '{}' >/dev/null
      if wait_until "$EXIT_LIMIT" gone; then
        elapsed=$(( $(date +%s) - start ))
        wait "$PID"
        echo "# $name: the process exited ${elapsed} s after the quit"
      else
        why="the process is still alive ${EXIT_LIMIT} s after app.quit (the run kept it)"
      fi
    fi
  fi
  if [ -n "$skip" ]; then
    echo "ok $N - $name # SKIP $skip"
  elif [ -z "$why" ]; then
    echo "ok $N - $name"
  else
    FAILED=$((FAILED + 1))
    echo "not ok $N - $name: $why"
    sed 's/^/# /' "$T/log"
  fi
  cleanup_app
}

cleanup_app () {
  if [ -n "$PID" ] && kill -0 "$PID" 2>/dev/null; then
    kill -KILL "$PID" 2>/dev/null
    wait "$PID" 2>/dev/null
  fi
  PID=
}

quit_mid_run "size sweep (n = 300..2000) quit mid-run" gauss-size \
  '{"params": {"from": "300", "to": "2000", "step": "1", "reps": "3", "local": "driver"}}'
quit_mid_run "group-size sweep quit mid-run" gauss-wg \
  '{"params": {"sizes": "600:2000:200", "preset": "multiples", "reps": "3", "local": "explicit"}}'
# A single solve is cancelled between launches, but the launches already
# queued on the device run to the end first: n = 1200 takes a few seconds
# on two CPU cores through PoCL.
quit_mid_run "single solve (n = 1200) quit mid-solve" gauss-solve \
  '{"n": 1200, "wg": 64, "local": "driver"}'

[ "$FAILED" -eq 0 ]
