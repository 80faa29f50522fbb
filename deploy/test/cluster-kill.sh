#!/usr/bin/env bash
# Three nodes started by deploy/gtran-cluster --data, killed together with SIGKILL under a write
# load through gremlinpython, then started again on their data, ROUNDS times (docs/durability.md,
# "Nodes of a cluster"). One writer process per node (THREADS threads each) commits transactions
# of two vertices and an edge (placement spread: most span nodes) until its node dies; after each
# restart every transaction a writer was told committed must be there, and none in part.
#
# With --one, each round kills one node (node R-1 mod 3) alone and restarts it alone with
# 'gtran-cluster restart' while the others run (docs/durability.md, "A member restarted alone"):
# after each restart every acknowledged transaction must be there, read through the restarted
# node, and in the next round every node's writer must commit again.
#
#   deploy/test/cluster-kill.sh [--one] [--rounds R] [--threads T] [--seconds S]
#
# Ends with 'CLUSTER_KILL passed rounds=R acked=A found=F' (exit 0) or 'CLUSTER_KILL FAILED ...'.
set -euo pipefail
GTRAN_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$GTRAN_HOME"
ROUNDS=2 THREADS=2 SECONDS_PER_ROUND=10 ONE=false
while [ $# -gt 0 ]; do
  case "$1" in
    --one) ONE=true; shift ;;
    --rounds) ROUNDS="$2"; shift 2 ;;
    --threads) THREADS="$2"; shift 2 ;;
    --seconds) SECONDS_PER_ROUND="$2"; shift 2 ;;
    *) echo "cluster-kill.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
WORK="$GTRAN_HOME/target/cluster-kill"
rm -rf "$WORK"; mkdir -p "$WORK"
cp -r deploy/conf "$WORK/conf"
cat > "$WORK/hosts" <<HOSTS
# id host gremlin_port fabric_port
0 127.0.0.5 18382 18500
1 127.0.0.6 18382 18500
2 127.0.0.7 18382 18500
HOSTS
export GTRAN_NODE_HEAP="-Xmx1g -XX:MaxDirectMemorySize=2g"
CLUSTER=(deploy/gtran-cluster --hosts "$WORK/hosts" --dir "$WORK/run" --conf "$WORK/conf" --data)
VENV="$GTRAN_HOME/gtran-server/target/e2e/venv"
if [ ! -x "$VENV/bin/python" ]; then python3 -m venv "$VENV"; fi
"$VENV/bin/python" -c 'import gremlin_python' 2>/dev/null || "$VENV/bin/pip" install -q "gremlinpython==3.8.1" >&2
CLIENT=("$VENV/bin/python" "$GTRAN_HOME/deploy/test/server_kill_client.py")
url() { echo "ws://127.0.0.$((5 + $1)):18382/gremlin"; }

fail() {
  echo "CLUSTER_KILL FAILED $*"
  "${CLUSTER[@]}" logs --lines 40 >&2 || true
  "${CLUSTER[@]}" stop >&2 || true
  exit 1
}

start_cluster() {
  "${CLUSTER[@]}" start > "$WORK/start-$1.txt" 2>&1 || fail "the cluster did not start (round $1): $(tail -5 "$WORK/start-$1.txt")"
  grep -q '^CLUSTER ready nodes=3 ' "$WORK/start-$1.txt" || fail "the cluster did not start (round $1)"
}

# One writer process per node, its keys apart from every other round's and node's: pids in 'writers'.
start_writers() {
  local r="$1" k
  writers=()
  for k in 0 1 2; do
    "${CLIENT[@]}" write "$(url "$k")" "$((r * 1000000 + k * 100000))" "$THREADS" > "$WORK/write-$r-$k.txt" 2>&1 &
    writers+=($!)
  done
}

stop_writers() {
  local w
  for w in "$@"; do
    # a gremlinpython thread whose connection died mid-transaction can hang: what it printed counts
    for _ in $(seq 1 20); do kill -0 "$w" 2>/dev/null || break; sleep 1; done
    kill -9 "$w" 2>/dev/null || true
    wait "$w" 2>/dev/null || true
  done
}

: > "$WORK/acks.txt"
if $ONE; then
  start_cluster 1
  for ((r = 1; r <= ROUNDS; r++)); do
    victim=$(((r - 1) % 3))
    start_writers "$r"
    sleep "$SECONDS_PER_ROUND"
    "${CLUSTER[@]}" kill "$victim" # SIGKILL, no shutdown hook; the others run on
    sleep 2
    for k in 0 1 2; do
      [ "$k" = "$victim" ] || "${CLIENT[@]}" write "$(url "$k")" "$((r * 1000000 + 500000 + k * 10000))" 1 \
        > "$WORK/write-$r-during-$k.txt" 2>&1 & # while the victim is down: refused or committed, never half
    done
    sleep 3
    "${CLUSTER[@]}" restart "$victim" > "$WORK/restart-$r.txt" 2>&1 \
      || fail "round $r: node $victim did not come back: $(tail -5 "$WORK/restart-$r.txt")"
    stop_writers "${writers[@]}" $(jobs -p)
    for k in 0 1 2; do
      n=$(grep -c '^ACK ' "$WORK/write-$r-$k.txt" || true)
      [ "$n" -gt 0 ] || fail "round $r: node $k's writer committed nothing: $(tail -3 "$WORK/write-$r-$k.txt")"
    done
    cat "$WORK"/write-"$r"-*.txt | grep '^ACK ' >> "$WORK/acks.txt" || true
    echo "round $r: killed node $victim alone and restarted it; $(grep -c '^ACK ' "$WORK/acks.txt") acknowledged so far"
    "${CLIENT[@]}" check "$(url "$victim")" "$WORK/acks.txt" | tee "$WORK/check-$r.txt" \
      || fail "after restarting node $victim: $(head -3 "$WORK/check-$r.txt")"
  done
  "${CLUSTER[@]}" stop > /dev/null
  echo "CLUSTER_KILL passed one rounds=$ROUNDS acked=$(grep -c '^ACK ' "$WORK/acks.txt")"
  exit 0
fi
for ((r = 1; r <= ROUNDS; r++)); do
  start_cluster "$r"
  if [ "$r" -gt 1 ]; then
    "${CLIENT[@]}" check "$(url $((r % 3)))" "$WORK/acks.txt" | tee "$WORK/check-$r.txt" \
      || fail "after kill $((r - 1)): $(head -3 "$WORK/check-$r.txt")"
  fi
  start_writers "$r"
  sleep "$SECONDS_PER_ROUND"
  for k in 0 1 2; do "${CLUSTER[@]}" kill "$k"; done # all three at once: SIGKILL, no shutdown hook
  stop_writers "${writers[@]}"
  "${CLUSTER[@]}" stop > /dev/null 2>&1 || true # the processes are gone: this clears their pid files
  acks=$(cat "$WORK"/write-"$r"-*.txt | grep -c '^ACK ' || true)
  [ "$acks" -gt 0 ] || fail "round $r: no transaction was acknowledged: $(tail -3 "$WORK/write-$r-0.txt")"
  cat "$WORK"/write-"$r"-*.txt | grep '^ACK ' >> "$WORK/acks.txt"
  echo "round $r: killed every node after $acks acknowledged transactions"
done
start_cluster final
"${CLIENT[@]}" check "$(url 1)" "$WORK/acks.txt" | tee "$WORK/check-final.txt" || fail "after the last kill: $(head -3 "$WORK/check-final.txt")"
"${CLUSTER[@]}" stop > /dev/null
read -r acked found < <(sed -nE 's/^CHECK acked=([0-9]+) found=([0-9]+).*/\1 \2/p' "$WORK/check-final.txt")
echo "CLUSTER_KILL passed rounds=$ROUNDS acked=$acked found=$found"
