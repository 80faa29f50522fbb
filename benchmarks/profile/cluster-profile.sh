#!/usr/bin/env bash
# Profiles every gtran node process on this machine with async-profiler (CPU, 1 ms, per thread),
# attached by jcmd while they run; docs/benchmarks.md, "Where a 3-process cluster's CPU goes".
#
#   benchmarks/profile/cluster-profile.sh --seconds S --out PREFIX [--after-line PATTERN --log FILE]
#
# Without --log it profiles the running nodes now, for S seconds. With --log it waits for each new
# line of FILE matching PATTERN (e.g. 'gtran-cluster.*phase=measure' of a 'bin/gtran bench lbv'
# output) and profiles S seconds from each, until FILE has an LBV_JSON line. Writes one collapsed
# stack file per node and window, PREFIX-W-PID.collapsed, and prints the top threads of each
# window (benchmarks/profile/top-frames.py reads them). The profiler comes from Maven Central
# (tools.profiler:async-profiler 4.1, its Linux x64 library).
set -euo pipefail
SECONDS_=10; OUT=""; PATTERN=""; LOG=""
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) SECONDS_="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    --after-line) PATTERN="$2"; shift 2 ;;
    --log) LOG="$2"; shift 2 ;;
    *) echo "cluster-profile: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -n "$OUT" ] || { echo "cluster-profile: --out PREFIX is required" >&2; exit 2; }
[ -z "$LOG" ] || [ -n "$PATTERN" ] || { echo "cluster-profile: --log needs --after-line" >&2; exit 2; }

VERSION=4.1
JAR="$HOME/.m2/repository/tools/profiler/async-profiler/$VERSION/async-profiler-$VERSION.jar"
[ -f "$JAR" ] || mvn -q dependency:get -Dartifact="tools.profiler:async-profiler:$VERSION" -Dtransitive=false
LIB_DIR="$(dirname "$OUT")/async-profiler-$VERSION"
mkdir -p "$LIB_DIR"
[ -f "$LIB_DIR/linux-x64/libasyncProfiler.so" ] || unzip -q -o "$JAR" 'linux-x64/*' -d "$LIB_DIR"
LIB="$(cd "$LIB_DIR" && pwd)/linux-x64/libasyncProfiler.so"
DIR_OUT="$(cd "$(dirname "$OUT")" && pwd)/$(basename "$OUT")"

profile_window() {
  local window="$1" pids p
  pids="$(pgrep -f io.gtran.server.GtranServer || true)"
  [ -n "$pids" ] || { echo "cluster-profile: no gtran node process running" >&2; return 1; }
  for p in $pids; do jcmd "$p" JVMTI.agent_load "$LIB" "\"start,event=cpu,interval=1ms,threads\"" > /dev/null & done
  wait
  sleep "$SECONDS_"
  for p in $pids; do
    jcmd "$p" JVMTI.agent_load "$LIB" "\"stop,collapsed,file=$DIR_OUT-$window-$p.collapsed\"" > /dev/null &
  done
  wait
  echo "PROFILED window=$window pids=$(echo $pids | tr ' ' ,) seconds=$SECONDS_ files=$DIR_OUT-$window-*.collapsed"
}

if [ -z "$LOG" ]; then
  profile_window 1
  exit 0
fi
seen=0
while true; do
  n="$(grep -c -- "$PATTERN" "$LOG" 2>/dev/null || true)"
  if [ "${n:-0}" -gt "$seen" ]; then
    seen="$n"
    profile_window "$seen" || true
  fi
  grep -q LBV_JSON "$LOG" 2>/dev/null && break
  sleep 0.2
done
