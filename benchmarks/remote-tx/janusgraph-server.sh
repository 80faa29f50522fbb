#!/usr/bin/env bash
# Starts JanusGraph 1.1.0 (inmemory) behind Gremlin Server 3.7.3 with sessions on 127.0.0.1:8193
# (JanusGraphTxServer, in LBV's janusgraph module), for comparing short remote transactions
# (docs/benchmarks.md, "Short remote transactions"). Runs in the foreground.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
CP_FILE="$ROOT/benchmarks/lbv/janusgraph/target/lbv-classpath.txt"
[ -f "$CP_FILE" ] || { echo "janusgraph-server: build the benchmarks first (bin/gtran bench lbv --help builds them)" >&2; exit 2; }
exec java -Xmx2g -cp "$(cat "$CP_FILE")" io.gtran.lbv.janusgraph.JanusGraphTxServer "${1:-8193}"
