#!/usr/bin/env bash
# CPU seconds that gtran's node processes and the LBV driver JVM spend during each measured phase of a
# 'bin/gtran bench lbv' run, from /proc (utime + stime); docs/benchmarks.md, "CPU per query".
#
#   benchmarks/profile/cluster-cpu.sh --seconds S --after-line PATTERN --log FILE
#
# Waits for each new line of FILE matching PATTERN (e.g. 'phase=measure'), reads the CPU time of every
# node process (io.gtran.server.GtranServer) and of the LBV child JVM (io.gtran.lbv.LbvChildMain, which
# runs the clients, and the server too for gtran-remote), again S seconds later, and prints
#   CPU window=N line=<the matched line> nodes=<pids> node_cpu_s=X driver_cpu_s=Y seconds=S
# until FILE has an LBV_JSON line. CPU per query is (X + Y) / (the phase's tps x S).
set -euo pipefail
SECONDS_=10; PATTERN=""; LOG=""
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) SECONDS_="$2"; shift 2 ;;
    --after-line) PATTERN="$2"; shift 2 ;;
    --log) LOG="$2"; shift 2 ;;
    *) echo "cluster-cpu: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -n "$LOG" ] && [ -n "$PATTERN" ] || { echo "cluster-cpu: --log FILE and --after-line PATTERN are required" >&2; exit 2; }
TICKS="$(getconf CLK_TCK)"

# Sum of utime + stime (clock ticks) of the given pids; a pid gone meanwhile counts 0.
ticks() {
  local sum=0 p t
  for p in "$@"; do
    t="$(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || echo 0)"
    sum=$((sum + t))
  done
  echo "$sum"
}

measure_window() {
  local window="$1" line="$2" nodes driver n0 d0 n1 d1
  nodes="$(pgrep -f io.gtran.server.GtranServer || true)"
  driver="$(pgrep -f io.gtran.lbv.LbvChildMain || true)"
  n0="$(ticks $nodes)"; d0="$(ticks $driver)"
  sleep "$SECONDS_"
  n1="$(ticks $nodes)"; d1="$(ticks $driver)"
  awk -v w="$window" -v l="$line" -v p="$(echo $nodes | tr ' ' ,)" -v n=$((n1 - n0)) -v d=$((d1 - d0)) \
      -v t="$TICKS" -v s="$SECONDS_" \
      'BEGIN { printf "CPU window=%s line=\"%s\" nodes=%s node_cpu_s=%.2f driver_cpu_s=%.2f seconds=%s\n", w, l, (p == "" ? "-" : p), n / t, d / t, s }'
}

seen=0
while true; do
  n="$(grep -c -- "$PATTERN" "$LOG" 2>/dev/null || true)"
  if [ "${n:-0}" -gt "$seen" ]; then
    seen="$n"
    measure_window "$seen" "$(grep -- "$PATTERN" "$LOG" | sed -n "${seen}p")" || true
  fi
  grep -q LBV_JSON "$LOG" 2>/dev/null && break
  sleep 0.2
done
