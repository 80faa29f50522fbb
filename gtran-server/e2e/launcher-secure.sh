#!/usr/bin/env bash
# The authentication and TLS recipe of docs/server.md, run through bin/gtran as a user runs it:
# 'bin/gtran credentials' writes a user, keytool a self-signed certificate, 'bin/gtran server
# --conf conf/gremlin-server-secure.yaml' serves, and a client (SecureClientCheck, Java driver)
# authenticates over TLS, writes, reads and has the node export its graph as Gryo; a wrong password
# is refused. Also checks that the server runs with the heap 'bin/gtran help' names. Works in
# gtran-server/target/launcher-secure; prints 'LAUNCHER_SECURE passed', or the server's output and
# exits non-zero.
#
#   gtran-server/e2e/launcher-secure.sh [--port P]     (default port 18184, on 127.0.0.1)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
GTRAN_HOME="$(cd "$HERE/../.." && pwd)"
GTRAN="$GTRAN_HOME/bin/gtran"
WORK="$GTRAN_HOME/gtran-server/target/launcher-secure"
PORT=18184
if [ "${1:-}" = "--port" ]; then PORT="$2"; fi

say() { echo "launcher-secure: $*" >&2; }
server_pid=
fail() {
  echo "LAUNCHER_SECURE FAILED: $*"
  echo "---- server output (last 40 lines) ----"
  tail -40 "$WORK/server.txt" 2>/dev/null || true
  exit 1
}
stop_server() { if [ -n "$server_pid" ]; then kill -TERM "$server_pid" 2>/dev/null || true; fi; }
trap stop_server EXIT

# The files docs/server.md's recipe starts from, in a fresh directory holding conf/.
rm -rf "$WORK"
mkdir -p "$WORK/conf"
for f in gremlin-server-secure.yaml gtran.properties credentials.properties; do
  cp "$GTRAN_HOME/gtran-server/conf/$f" "$WORK/conf/"
done
sed -i -e "s/^port: .*/port: $PORT/" "$WORK/conf/gremlin-server-secure.yaml"
cd "$WORK"

# Built here, once: a rebuild later (a source changed meanwhile) would swap classes under the server.
say "building (bin/gtran jvm-flags)"
FLAGS="$("$GTRAN" jvm-flags)"

say "bin/gtran credentials"
"$GTRAN" credentials --file conf/credentials.kryo --user alice --password 's3cret' || fail "bin/gtran credentials failed"
[ -s conf/credentials.kryo ] || fail "bin/gtran credentials left no credentials file"
keytool -genkeypair -alias gtran -keyalg RSA -keysize 2048 -validity 2 -dname CN=localhost \
  -keystore conf/server.p12 -storetype PKCS12 -storepass changeit >/dev/null 2>&1 || fail "keytool failed"

say "bin/gtran server --conf conf/gremlin-server-secure.yaml on port $PORT"
"$GTRAN" server --conf conf/gremlin-server-secure.yaml > server.txt 2>&1 &
server_pid=$!
for _ in $(seq 1 120); do
  grep -q '^GTRAN_SERVER ready' server.txt && break
  kill -0 "$server_pid" 2>/dev/null || fail "the secure server exited before it was ready"
  sleep 1
done
grep -q "^GTRAN_SERVER ready host=127.0.0.1 port=$PORT" server.txt || fail "the secure server was not ready within 120 s"

# 'bin/gtran help' must name the heap the server runs with.
heap="$("$GTRAN" help | sed -n 's/^  server, credentials, check: *//p')"
[ -n "$heap" ] || fail "bin/gtran help names no server heap"
ps -o args= -p "$server_pid" | grep -qF -- " $heap " || fail "the server does not run with the heap help names ($heap)"

say "client: TLS, user alice, Gryo export"
T="$GTRAN_HOME/gtran-server/target"
java -Xmx256m $FLAGS -cp "$T/test-classes:$T/classes:$(cat "$T/test-classpath.txt")" \
  io.gtran.server.SecureClientCheck 127.0.0.1 "$PORT" alice 's3cret' "$WORK/export.kryo" || fail "the client check failed"

kill -TERM "$server_pid"
wait "$server_pid" || true
server_pid=
grep -q 'shutdown complete' server.txt || fail "the server did not stop cleanly"
echo "LAUNCHER_SECURE passed"
