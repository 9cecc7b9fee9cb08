#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 30, target 6: the CPU bandwidth probe (`bench bandwidth`) beside
# BabelStream's OpenMP build on the same machine, in the same minute, over
# arrays of the same size: our probe's default on each device (more than 4x
# the last-level cache), floats on both sides.  Build BabelStream 5.0 first:
#   git clone https://github.com/UoB-HPC/BabelStream /tmp/babelstream
#   cd /tmp/babelstream && git checkout v5.0 &&
#   cmake -S . -B build -DMODEL=omp -DCMAKE_BUILD_TYPE=Release && cmake --build build
# then, from the repository root:
#   BABELSTREAM=/tmp/babelstream/build/omp-stream tests/device/cpu-bandwidth-vs-babelstream.sh host,opencl:0:0
# Each round runs BabelStream, then our probe, device by device, so both
# see the same load; the best of the rounds is compared (bandwidth is a
# limit: the best run is the least disturbed).  ROUNDS (default 3), REPS
# (default 10, BabelStream's -n too), MIB (default: the probe's own size on
# each device) and CLI (default kernelscope-cli) change the runs.  Exit
# status 1 if a device's triad is below 90 % of BabelStream's.
set -u
DEVICES=${1:-host}
BS=${BABELSTREAM:?set BABELSTREAM to the omp-stream of BabelStream}
CLI=${CLI:-kernelscope-cli}
ROUNDS=${ROUNDS:-3}
REPS=${REPS:-10}
status=0

echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC'); $(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
echo "# caches: sysfs L3 $(cat /sys/devices/system/cpu/cpu0/cache/index3/size 2>/dev/null || echo -)," \
     "sysconf L3 $(getconf LEVEL3_CACHE_SIZE 2>/dev/null || echo -) bytes; load $(cut -d' ' -f1-3 /proc/loadavg)"
"$BS" --float -s 1024 -n 2 2>&1 | awk '/^Version|^Implementation/' | tr '\n' ' ' | sed 's/^/# BabelStream /; s/ $/\n/'

# "copy triad" in GB/s from BabelStream's output (MBytes/sec, the best run).
babel () {
  "$BS" --float -s "$1" -n "$REPS" 2>&1 |
    awk '$1 == "Copy" { c = $2 } $1 == "Triad" { t = $2 } END { printf "%.1f %.1f\n", c / 1000, t / 1000 }'
}

# "copy triad MiB" from our probe's point for device $1 (--mib $2 if given;
# bench bandwidth is run bench-bandwidth: read from its CSV).
ours () {
  local csv
  csv=$(mktemp) || return
  "$CLI" bench bandwidth -d "$1" ${2:+--mib "$2"} --reps "$REPS" --csv "$csv" >/dev/null 2>&1
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
           { print $c["copy_gbs"], $c["triad_gbs"], $c["mib_each"]; exit }' "$csv"
  rm -f "$csv"
}

IFS=, read -r -a devs <<< "$DEVICES"
for dev in "${devs[@]}"; do
  if [ -n "${MIB:-}" ]; then
    mib=$MIB
  else
    # The probe's default size on this device, in whole MiB for both tools.
    read -r _ _ size <<< "$(ours "$dev" "")"
    [ -n "${size:-}" ] || { echo "$dev: no row from $CLI bench bandwidth -d $dev"; status=1; continue; }
    mib=${size%.*}
  fi
  elements=$((mib * 262144))
  echo
  echo "## $dev, $mib MiB per array ($elements floats):"
  echo "##   $BS --float -s $elements -n $REPS  |  $CLI bench bandwidth -d $dev --mib $mib --reps $REPS"
  printf '%-7s %12s %12s %12s %12s\n' round "BS copy" "BS triad" "ours copy" "ours triad"
  best_bs=0 best_ours=0
  for r in $(seq "$ROUNDS"); do
    read -r bc bt <<< "$(babel "$elements")"
    read -r oc ot _ <<< "$(ours "$dev" "$mib")"
    printf '%-7s %12s %12s %12s %12s\n' "$r" "$bc" "$bt" "${oc:--}" "${ot:--}"
    best_bs=$(awk -v a="$best_bs" -v b="$bt" 'BEGIN { print (b > a ? b : a) }')
    best_ours=$(awk -v a="$best_ours" -v b="${ot:-0}" 'BEGIN { print (b > a ? b : a) }')
  done
  verdict=$(awk -v o="$best_ours" -v b="$best_bs" \
    'BEGIN { r = (b > 0) ? o / b : 0; printf "%.1f %% of it%s", 100 * r, (r >= 0.9) ? " (not below 90 %)" : " (BELOW 90 %)" }')
  echo "best triad: ours $best_ours GB/s, BabelStream $best_bs GB/s: $verdict"
  case $verdict in *BELOW*) status=1 ;; esac
done
exit $status
