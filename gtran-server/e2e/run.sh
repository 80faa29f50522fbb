#!/usr/bin/env bash
# End-to-end test of a gtran node run the way users install it: the real Gremlin Server 3.8.1
# distribution (fetched by Maven) with gtran's plugin installed in ext/, driven by gremlinpython
# 3.8.1, the npm 'gremlin' 3.8.1 package, gremlin-go v3.8.1 and the Gremlin Console 3.7.3 in remote
# mode, and gremlin-driver 3.8.1 (Client.java, run by the JDK's source launcher). The node has
# gtran.storage.node-id=3, so its ids carry a node other than 0; every client reads elements back by
# the ids it was given. Installs what it needs under gtran-server/target/e2e (a Python venv,
# node_modules, Go modules, the gremlin-driver jar). Prints one 'E2E client=<name> ok' line per
# client and 'E2E passed' at the end; exits non-zero on the first failure, with the server log.
#
#   gtran-server/e2e/run.sh [--port P]       (default port 18182, on 127.0.0.1)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
GTRAN_HOME="$(cd "$HERE/../.." && pwd)"
WORK="$GTRAN_HOME/gtran-server/target/e2e"
PORT=18182
if [ "${1:-}" = "--port" ]; then PORT="$2"; fi
URL="ws://127.0.0.1:$PORT/gremlin"
TP=3.8.1
CONSOLE_VERSION=3.7.3
SERVER_HOME="$WORK/apache-tinkerpop-gremlin-server-$TP"
CONSOLE_HOME="$WORK/apache-tinkerpop-gremlin-console-$CONSOLE_VERSION"

say() { echo "e2e: $*" >&2; }

mkdir -p "$WORK"

# 1. gtran's jars and the two distributions
say "building gtran-server"
(cd "$GTRAN_HOME" && mvn -q -B package -DskipTests -pl gtran-server -am) >&2
for artifact in "gremlin-server:$TP" "gremlin-console:$CONSOLE_VERSION"; do
  zip="$WORK/${artifact%%:*}-${artifact##*:}-distribution.zip"
  if [ ! -f "$zip" ]; then
    say "fetching org.apache.tinkerpop:$artifact:zip:distribution"
    (cd "$GTRAN_HOME" && mvn -q -B dependency:copy -Dartifact="org.apache.tinkerpop:$artifact:zip:distribution" -DoutputDirectory="$WORK") >&2
  fi
done
# the Java client's driver: the server distribution ships the driver's dependencies, not the driver
DRIVER_JAR="$WORK/gremlin-driver-$TP.jar"
if [ ! -f "$DRIVER_JAR" ]; then
  say "fetching org.apache.tinkerpop:gremlin-driver:$TP"
  (cd "$GTRAN_HOME" && mvn -q -B dependency:copy -Dartifact="org.apache.tinkerpop:gremlin-driver:$TP" -DoutputDirectory="$WORK") >&2
fi
rm -rf "$SERVER_HOME"
(cd "$WORK" && unzip -q -o "gremlin-server-$TP-distribution.zip")
[ -d "$CONSOLE_HOME" ] || (cd "$WORK" && unzip -q -o "gremlin-console-$CONSOLE_VERSION-distribution.zip")

# 2. gtran's plugin into ext/: gtran's jars and their dependencies the server does not already ship.
#    (What 'gremlin-server.sh install' would do for a published artifact.)
say "installing the gtran plugin into ext/gtran"
PLUGIN="$SERVER_HOME/ext/gtran"
mkdir -p "$PLUGIN/plugin" "$PLUGIN/lib"
shipped="$(ls "$SERVER_HOME/lib" | sed -E 's/-[0-9][^-]*(-[A-Za-z0-9.]+)?\.jar$//' | sort -u)"
cp "$GTRAN_HOME/gtran-server/target/gtran-server-"*.jar "$PLUGIN/plugin/"
tr ':' '\n' < "$GTRAN_HOME/gtran-server/target/runtime-classpath.txt" | while read -r jar; do
  [ -f "$jar" ] || continue
  name="$(basename "$jar" | sed -E 's/-[0-9][^-]*(-[A-Za-z0-9.]+)?\.jar$//')"
  case "$name" in slf4j-*|logback-*|jcl-over-slf4j) continue ;; esac  # the server has its own logging
  if ! grep -qx "$name" <<< "$shipped"; then cp "$jar" "$PLUGIN/plugin/"; fi
done
cp "$PLUGIN/plugin/"*.jar "$PLUGIN/lib/"

# 3. gtran's configuration, port changed, node id 3 (ids name their owner node: docs/server.md,
#    "Element ids"); paths are relative to the server's home, where it starts
cp "$GTRAN_HOME/gtran-server/conf/gtran.properties" "$SERVER_HOME/conf/gtran.properties"
sed -i -e '/^gtran\.storage\.node-id=/d' -e '$a gtran.storage.node-id=3' "$SERVER_HOME/conf/gtran.properties"
grep -qx 'gtran.storage.node-id=3' "$SERVER_HOME/conf/gtran.properties" || { echo "E2E FAILED: node id not set"; exit 1; }
cp "$GTRAN_HOME/gtran-server/conf/init.groovy" "$SERVER_HOME/conf/gtran-init.groovy"
# gtran's own server binds g itself; a stock server needs the init script (docs/server.md)
sed -e "s#^port: .*#port: $PORT#" \
  -e 's|methodImports: \[java.lang.Math#\*\]}}}}|methodImports: [java.lang.Math#*]}, org.apache.tinkerpop.gremlin.jsr223.ScriptFileGremlinPlugin: {files: [conf/gtran-init.groovy]}}}}|' \
  "$GTRAN_HOME/gtran-server/conf/gremlin-server.yaml" > "$SERVER_HOME/conf/gremlin-server-gtran.yaml"
grep -q 'ScriptFileGremlinPlugin: {files: \[conf/gtran-init.groovy\]}' "$SERVER_HOME/conf/gremlin-server-gtran.yaml" \
  || { echo "E2E FAILED: the stock server's configuration names no init script"; exit 1; }

# 4. start it
JDK17_FLAGS="$("$GTRAN_HOME/bin/gtran" jvm-flags)"
LOG="$SERVER_HOME/logs/gremlin.log"
mkdir -p "$SERVER_HOME/logs"
stop_server() {
  (cd "$SERVER_HOME" && bin/gremlin-server.sh stop >/dev/null 2>&1) || true
}
fail() {
  echo "E2E FAILED: $*"
  echo "---- server log (last 60 lines) ----"
  tail -60 "$LOG" 2>/dev/null || true
  stop_server
  exit 1
}
trap stop_server EXIT
say "starting Gremlin Server $TP with gtran on 127.0.0.1:$PORT"
(cd "$SERVER_HOME" && JAVA_OPTIONS="-Xms256m -Xmx2g -XX:MaxDirectMemorySize=2g $JDK17_FLAGS" \
  GREMLIN_YAML=conf/gremlin-server-gtran.yaml bin/gremlin-server.sh start >/dev/null)
for _ in $(seq 1 120); do
  grep -q "Channel started at port $PORT" "$LOG" 2>/dev/null && break
  grep -q "Gremlin Server Error\|Exception in thread \"main\"" "$LOG" 2>/dev/null && fail "server did not start"
  sleep 1
done
grep -q "Channel started at port $PORT" "$LOG" || fail "server did not start within 120 s"
grep -q "gtran node ready" "$LOG" || fail "the gtran graph was not opened"

# 5. the drivers
say "python: gremlinpython $TP"
if [ ! -x "$WORK/venv/bin/python" ]; then python3 -m venv "$WORK/venv"; fi
"$WORK/venv/bin/pip" install -q "gremlinpython==$TP" >&2
"$WORK/venv/bin/python" "$HERE/client.py" "$URL" || fail "python client"

say "javascript: npm gremlin $TP"
mkdir -p "$WORK/js"
if [ ! -d "$WORK/js/node_modules/gremlin" ]; then
  (cd "$WORK/js" && npm init -y >/dev/null && npm install --silent --no-audit --no-fund "gremlin@$TP" >&2)
fi
(cd "$WORK/js" && NODE_PATH="$WORK/js/node_modules" node "$HERE/client.js" "$URL") || fail "javascript client"

say "go: gremlin-go v$TP"
rm -rf "$WORK/go" && cp -r "$HERE/go" "$WORK/go"
(cd "$WORK/go" && go mod tidy >&2 && go run . "$URL") || fail "go client"

say "java: gremlin-driver $TP"
java -Dlogback.configurationFile="$SERVER_HOME/conf/logback.xml" -cp "$SERVER_HOME/lib/*:$DRIVER_JAR" \
  "$HERE/Client.java" "$URL" || fail "java client"

say "console: Gremlin Console $CONSOLE_VERSION in remote mode"
# the file docs/server.md tells users to copy, port changed
sed -e "s#^port: .*#port: $PORT#" "$GTRAN_HOME/gtran-server/conf/remote-gtran.yaml" > "$CONSOLE_HOME/conf/remote-gtran.yaml"
console_out="$(cd "$CONSOLE_HOME" && bin/gremlin.sh < "$HERE/console.txt" 2>&1)" || true
# console.txt reads the vertex and the edge back by their ids; an edge's id names no vertex
for line in "==>from-console" "==>vertex-by-id=from-console" "==>edge-by-id=console-loop" "==>edge-id-as-vertex=0"; do
  if ! grep -qF "$line" <<< "$console_out"; then
    echo "$console_out" | tail -30
    fail "console: no '$line'"
  fi
done
echo "E2E client=console ok"

grep -q "ERROR" "$LOG" && say "server log has ERROR lines (expected ones come from the conflict cases):" && grep "ERROR" "$LOG" | head -5 >&2
echo "E2E passed"
