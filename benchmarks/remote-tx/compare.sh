#!/usr/bin/env bash
# Short remote transactions (begin g.tx(), add one vertex, commit) through the Java driver and
# gremlinpython, against, one after another: a gtran node (bin/gtran server, durability sync), three
# gtran processes (deploy/gtran-cluster, through node 0), TinkerTransactionGraph behind a stock Gremlin
# Server 3.8.1 and JanusGraph 1.1.0 (inmemory) behind Gremlin Server 3.7.3; docs/benchmarks.md, "Short
# remote transactions".
#
#   benchmarks/remote-tx/compare.sh [--seconds S] [--runs N] [--python PYTHON]
#
# PYTHON needs gremlinpython 3.8.1 (default python3). Prints one REMOTE_TX line per client and run,
# prefixed with the server's name.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
SECONDS_=10; RUNS=2; PYTHON=python3
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) SECONDS_="$2"; shift 2 ;;
    --runs) RUNS="$2"; shift 2 ;;
    --python) PYTHON="$2"; shift 2 ;;
    *) echo "compare: unknown option $1" >&2; exit 2 ;;
  esac
done
"$PYTHON" -c "import gremlin_python" 2>/dev/null || { echo "compare: $PYTHON has no gremlinpython (pip install gremlinpython==3.8.1)" >&2; exit 2; }
LOGS="$(mktemp -d)"
SERVER_PID=""
stop_server() { [ -z "$SERVER_PID" ] || { kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=""; }; }
trap 'stop_server; "$ROOT/deploy/gtran-cluster" stop > /dev/null 2>&1 || true' EXIT

# Waits up to 120 s for PATTERN in FILE; fails naming the log otherwise.
await_line() {
  for _ in $(seq 1 120); do grep -q -- "$2" "$1" && return 0; sleep 1; done
  echo "compare: no '$2' in $1 after 120 s" >&2; tail -20 "$1" >&2; exit 1
}

clients() {
  local name="$1" port="$2" r
  for r in $(seq 1 "$RUNS"); do
    "$ROOT/bin/gtran" bench remote-tx --port "$port" --seconds "$SECONDS_" 2>"$LOGS/$name-java-$r.err" \
      | grep REMOTE_TX | sed "s/^/$name /" || echo "$name REMOTE_TX client=java failed (see $LOGS/$name-java-$r.err)"
    "$PYTHON" "$HERE/remote_tx.py" 127.0.0.1 "$port" "$SECONDS_" 2>"$LOGS/$name-python-$r.err" \
      | grep REMOTE_TX | sed "s/^/$name /" || echo "$name REMOTE_TX client=python failed (see $LOGS/$name-python-$r.err)"
  done
}

"$ROOT/bin/gtran" server --data "$LOGS/gtran-data" > "$LOGS/gtran.log" 2>&1 & SERVER_PID=$!
await_line "$LOGS/gtran.log" "GTRAN_SERVER ready"
clients gtran 8182
stop_server

"$ROOT/deploy/gtran-cluster" start > "$LOGS/cluster.log" 2>&1
clients gtran-3-processes 8182
"$ROOT/deploy/gtran-cluster" stop > /dev/null 2>&1

"$HERE/tinkertx-server.sh" > "$LOGS/tinkertx.log" 2>&1 & SERVER_PID=$!
await_line "$LOGS/tinkertx.log" "Channel started at port 8192"
clients tinkertx 8192
stop_server

"$HERE/janusgraph-server.sh" > "$LOGS/janusgraph.log" 2>&1 & SERVER_PID=$!
await_line "$LOGS/janusgraph.log" "JANUSGRAPH_SERVER ready"
clients janusgraph 8193
stop_server
echo "compare: logs in $LOGS"
