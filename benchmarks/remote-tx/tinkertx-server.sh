#!/usr/bin/env bash
# Starts TinkerTransactionGraph behind a stock Gremlin Server 3.8.1 (127.0.0.1:8192, sessions on),
# on gtran-server's class path, which holds Gremlin Server and TinkerGraph; for comparing short
# remote transactions (docs/benchmarks.md, "Short remote transactions"). Runs in the foreground.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
CP_FILE="$ROOT/gtran-server/target/runtime-classpath.txt"
[ -f "$CP_FILE" ] || { echo "tinkertx-server: build gtran first (mvn -q install -DskipTests)" >&2; exit 2; }
cd "$HERE/tinkertx"
exec java -Xmx2g -cp "$ROOT/gtran-server/target/classes:$(cat "$CP_FILE")" org.apache.tinkerpop.gremlin.server.GremlinServer gremlin-server.yaml
