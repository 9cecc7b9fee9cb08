# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by the Oclgrind test scripts (test-runtime-oclgrind.sh,
# test-heat-oclgrind.sh): runs a program under Oclgrind with every OpenCL
# context's reports in one log.
#
# Why not plain --log FILE: Oclgrind's Logger opens FILE anew (an ofstream,
# truncating) for every context, and each test case makes one, so the file
# held only the last context's reports; a case that reported and was
# followed by a clean one passed.  Here --log is a FIFO: Oclgrind's
# truncating open of it loses nothing, and one cat appends whatever any
# context writes to the real log.  The script keeps a write end of the FIFO
# open itself (read-write, which never blocks on Linux) so that cat does not
# see end-of-file between one context's close and the next one's open; it
# closes it after Oclgrind has exited, and cat then drains and ends.
#
# oclgrind_logged LOG ARGS...: runs "oclgrind --log FIFO ARGS..." with stdin
# and stdout/stderr as the caller's; every report lands in LOG (created
# empty first); returns oclgrind's status.  Needs $T, a scratch directory.
oclgrind_logged () {
  local log=$1 fifo=$T/oclgrind-log.fifo reader rc
  shift
  : >"$log" || return 1
  rm -f "$fifo"
  mkfifo "$fifo" || return 1
  cat "$fifo" >>"$log" &
  reader=$!
  exec 3<>"$fifo"
  oclgrind --log "$fifo" "$@" 3>&-
  rc=$?
  exec 3>&-
  wait "$reader"
  rm -f "$fifo"
  return $rc
}
