#!/usr/bin/env bash
# A one-node server killed with SIGKILL under a write load, restarted on its data directory,
# ROUNDS times (docs/durability.md, "How it is shown"). Writers (gremlinpython, THREADS threads)
# commit transactions of two vertices and an edge until the server dies; after each restart every
# transaction a writer was told committed must be there, and none may be there in part.
#
#   deploy/test/server-kill.sh [--rounds R] [--threads T] [--seconds S] [--durability sync|async]
#
# Ends with 'SERVER_KILL passed rounds=R acked=A found=F' (exit 0) or 'SERVER_KILL FAILED ...'.
set -euo pipefail
GTRAN_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$GTRAN_HOME"
ROUNDS=3 THREADS=4 SECONDS_PER_ROUND=8 DURABILITY=sync PORT=18191
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) ROUNDS="$2"; shift 2 ;;
    --threads) THREADS="$2"; shift 2 ;;
    --seconds) SECONDS_PER_ROUND="$2"; shift 2 ;;
    --durability) DURABILITY="$2"; shift 2 ;;
    *) echo "server-kill.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
WORK="$GTRAN_HOME/target/server-kill"
rm -rf "$WORK"; mkdir -p "$WORK"
VENV="$GTRAN_HOME/gtran-server/target/e2e/venv"
if [ ! -x "$VENV/bin/python" ]; then python3 -m venv "$VENV"; fi
"$VENV/bin/python" -c 'import gremlin_python' 2>/dev/null || "$VENV/bin/pip" install -q "gremlinpython==3.8.1" >&2
CLIENT=("$VENV/bin/python" "$GTRAN_HOME/deploy/test/server_kill_client.py")
URL="ws://127.0.0.1:$PORT/gremlin"

fail() { echo "SERVER_KILL FAILED $*"; exit 1; }

start_server() {
  local log="$WORK/server-$1.txt"
  # the default configuration with --data; async through a configuration of its own
  if [ "$DURABILITY" = sync ]; then
    bin/gtran server --port "$PORT" --data "$WORK/data" > "$log" 2>&1 &
  else
    mkdir -p "$WORK/conf"
    [ -f "$WORK/conf/gremlin-server.yaml" ] || {
      cp gtran-server/conf/gremlin-server.yaml "$WORK/conf/"
      sed -i -e "s#^port: .*#port: $PORT#" -e "s#conf/#$WORK/conf/#g" "$WORK/conf/gremlin-server.yaml"
      sed -e "s#^gtran.storage.directory=.*#gtran.storage.directory=$WORK/data#" \
          -e "s#^gtran.durability=.*#gtran.durability=$DURABILITY#" gtran-server/conf/gtran.properties > "$WORK/conf/gtran.properties"; }
    bin/gtran server --conf "$WORK/conf/gremlin-server.yaml" > "$log" 2>&1 &
  fi
  SERVER_PID=$!
  for _ in $(seq 1 180); do
    grep -q '^GTRAN_SERVER ready' "$log" && return 0
    kill -0 "$SERVER_PID" 2>/dev/null || fail "the server did not start (round $1): $(tail -3 "$log")"
    sleep 1
  done
  fail "the server was not ready within 180 s (round $1)"
}

: > "$WORK/acks.txt"
for ((r = 1; r <= ROUNDS; r++)); do
  start_server "$r"
  if [ "$r" -gt 1 ]; then
    "${CLIENT[@]}" check "$URL" "$WORK/acks.txt" | tee "$WORK/check-$r.txt" || fail "after kill $((r - 1)): $(head -3 "$WORK/check-$r.txt")"
  fi
  "${CLIENT[@]}" write "$URL" "$((r * 1000000))" "$THREADS" > "$WORK/write-$r.txt" 2>&1 &
  writer=$!
  sleep "$SECONDS_PER_ROUND"
  kill -9 "$SERVER_PID"
  wait "$SERVER_PID" 2>/dev/null || true
  # a gremlinpython thread whose connection died mid-transaction can hang: what it printed counts
  for _ in $(seq 1 20); do kill -0 "$writer" 2>/dev/null || break; sleep 1; done
  kill -9 "$writer" 2>/dev/null || true
  wait "$writer" 2>/dev/null || true
  acks=$(grep -c '^ACK ' "$WORK/write-$r.txt" || true)
  [ "$acks" -gt 0 ] || fail "round $r: no transaction was acknowledged: $(tail -3 "$WORK/write-$r.txt")"
  grep '^ACK ' "$WORK/write-$r.txt" >> "$WORK/acks.txt"
  echo "round $r: killed the server (pid $SERVER_PID) after $acks acknowledged transactions"
done
start_server final
"${CLIENT[@]}" check "$URL" "$WORK/acks.txt" | tee "$WORK/check-final.txt" || fail "after the last kill: $(head -3 "$WORK/check-final.txt")"
kill -TERM "$SERVER_PID"; wait "$SERVER_PID" || true
read -r acked found < <(sed -nE 's/^CHECK acked=([0-9]+) found=([0-9]+).*/\1 \2/p' "$WORK/check-final.txt")
echo "SERVER_KILL passed rounds=$ROUNDS durability=$DURABILITY acked=$acked found=$found"
