#!/usr/bin/env bash
# The deployment scripts and the fault harness against real processes, as CI runs them:
#   deploy/test/cluster-faults.sh [--seconds S] [--schedules LIST] [--workloads LIST] [--seed S]
# Starts three nodes with deploy/gtran-cluster (node 2 through the ssh path, with a stand-in for ssh
# that gives it a login directory of its own), checks status, runs the list-append and bank checks
# through gremlin-driver under each fault schedule, times how long a killed node takes to be
# reported lost, and stops the cluster, checking no process or port is left. Ends with
# 'CLUSTER_FAULTS passed'; any failing check ends it with the seed to replay.
set -euo pipefail
GTRAN_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$GTRAN_HOME"

SECONDS_PER_RUN=8
# 8 s: a 4 s fault has a third of the run before it and as long after it (the check then loads on
# until every live node has committed after the heal, at most 120 s more). The nodes run with a
# peer-loss bound of 2.5 s (heartbeats every 500 ms) instead of the default 5 s, so that a fault
# outlasts it in seconds. A schedule with ':MS' lasts MS milliseconds: pauses and cuts of 1 s stay
# under the bound (no one is counted lost), those of 4 s outlast it (the minority is counted lost
# and rejoins after the heal). Others last a third of the run.
PEER_LOST_AFTER_MS=2500
HEARTBEAT_INTERVAL_MS=500
# A schedule with '/W' runs workload W only, one without runs each: every fault is shown once, the
# pause and the minority cut meet both workloads (one under each length), the crash both, the
# restart of one node list-append (--schedules restart runs both; CI's 30 minutes are short), the
# restarts after the others (docs/durability.md). 'restart': node 2 killed with
# SIGKILL (its keys read around, the survivors' sums kept while it is down), then started again
# alone on its data ('gtran-cluster restart 2'): every write it acknowledged is read back and it
# commits again. 'crash': every node SIGKILLed at once, then all started again on their data
# ('gtran-cluster restart all'): nothing any of them acknowledged is lost, the bank's total is
# kept, and each commits again. 'kill' (node 2 left dead) runs when asked. No 'none': mvn verify's
# ClusterCheckTest runs both workloads without faults on three processes deploy/gtran-cluster
# started (--schedules none runs it here).
# Cuts the membership group must decide: one direction of a link, the one link 0-1 (each end hears a
# majority through node 2), and the clock master (node 0) cut off under load (what partition 0 1,2
# does too: master:4000 stands for partition:4000).
SCHEDULES="pause:1000/list-append partition:1000/bank delay-loss/bank"
SCHEDULES="$SCHEDULES clock-jump/list-append pause:4000/bank isolate:4000/bank restart/list-append crash"
SCHEDULES="$SCHEDULES oneway:4000/list-append link:4000/bank master:4000/list-append"
WORKLOADS="list-append bank"
SEED="${GTRAN_FAULT_SEED:-$(date +%s)}"
# How long survivors may take to report a killed node lost (docs/deployment.md).
LOST_BOUND_S=10
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) SECONDS_PER_RUN="$2"; shift 2 ;;
    --schedules) SCHEDULES="${2//,/ }"; shift 2 ;;
    --workloads) WORKLOADS="${2//,/ }"; shift 2 ;;
    --seed) SEED="$2"; shift 2 ;;
    *) echo "cluster-faults: unknown option $1" >&2; exit 2 ;;
  esac
done
echo "CLUSTER_FAULTS seed=$SEED schedules='$SCHEDULES' workloads='$WORKLOADS' seconds=$SECONDS_PER_RUN" \
  "peer_lost_after_ms=$PEER_LOST_AFTER_MS"

WORK="$GTRAN_HOME/target/cluster-faults"
rm -rf "$WORK" /tmp/gtran-fake-ssh-ci
mkdir -p "$WORK"
# deploy/conf with the shorter loss bound in every graph's settings
cp -r deploy/conf "$WORK/conf"
for graph in "$WORK"/conf/*.properties; do
  printf 'gtran.fabric.peer-lost-after-ms=%s\ngtran.fabric.heartbeat-interval-ms=%s\n' \
    "$PEER_LOST_AFTER_MS" "$HEARTBEAT_INTERVAL_MS" >> "$graph"
done
# Not 127.0.0.1: what unbound sockets send from, which an iptables cut must not match (--net-cuts).
cat > "$WORK/hosts" <<HOSTS
# id host gremlin_port fabric_port [user]
0 127.0.0.2 18282 18400
1 127.0.0.3 18282 18400
2 127.0.0.4 18282 18400 gtran
HOSTS
export GTRAN_SSH="$GTRAN_HOME/deploy/test/fake-ssh" FAKE_SSH_ROOT=/tmp/gtran-fake-ssh-ci
export GTRAN_NODE_HEAP="-Xmx1g -XX:MaxDirectMemorySize=2g" GTRAN_FAULT_SEED="$SEED"
# --data: every node logs (gtran.durability=sync, the server's default) under every schedule, and
# the restarts start nodes again on what they logged.
CLUSTER=(deploy/gtran-cluster --hosts "$WORK/hosts" --dir "$WORK/run" --conf "$WORK/conf" --data --faults)
# Every channel cut (fabric, the membership group's Ratis), where this machine allows it: root,
# iptables, cgroup v2 (.ci/run installs iptables). Otherwise only the fabric's messages are cut.
if [ "$(id -u)" = 0 ] && command -v iptables > /dev/null && [ -n "$(findmnt -n -t cgroup2 -o TARGET 2>/dev/null)" ]; then
  CLUSTER+=(--net-cuts)
  echo "CLUSTER_FAULTS net_cuts=iptables"
else
  echo "CLUSTER_FAULTS net_cuts=off (needs root, iptables and cgroup v2): the cuts reach the fabric only"
fi

fail() {
  echo "CLUSTER_FAULTS failed: $* (seed=$SEED)" >&2
  "${CLUSTER[@]}" status >&2 || true
  "${CLUSTER[@]}" logs --lines 60 >&2 || true
  "${CLUSTER[@]}" stop >&2 || true
  exit 1
}

start_cluster() {
  "${CLUSTER[@]}" start | tee "$WORK/start.txt"
  grep -q '^CLUSTER ready nodes=3 ' "$WORK/start.txt" || fail "the cluster did not start"
  # Each launcher chose the JIT by the cores its host's nodes share (docs/deployment.md, "The JIT"):
  # nodes 0 and 1 share this machine's, node 2 is alone on its "host" (the ssh stand-in).
  local cores expect0 expect2
  cores=$(nproc)
  expect0=full; [ "$cores" -ge 4 ] || expect0=quick
  expect2=full; [ "$cores" -ge 2 ] || expect2=quick
  "${CLUSTER[@]}" logs 0 --lines 1000000 | grep -q "^gtran-node: jit=$expect0 " \
    || fail "node 0 does not run jit=$expect0 (two nodes on $cores cores)"
  "${CLUSTER[@]}" logs 2 --lines 1000000 | grep -q "^gtran-node: jit=$expect2 " \
    || fail "node 2 does not run jit=$expect2 (one node on $cores cores)"
  # Node 2 ran from what was copied to its own login directory.
  test -x "$FAKE_SSH_ROOT/gtran@127.0.0.4/gtran-cluster/dist/gtran-node" || fail "node 2's files were not copied over the ssh path"
  "${CLUSTER[@]}" status | tee "$WORK/status.txt"
  test "$(grep -c ' state=up ' "$WORK/status.txt")" -eq 3 || fail "not every node reports state=up after start"
}

# How many times a node has logged that a lost member rejoined: a fault that outlasts the loss
# bound must add to it, one shorter than the bound must not (else the schedule shows no fault, or
# the wrong one).
rejoins() {
  "${CLUSTER[@]}" logs --lines 1000000 | grep -c 'rejoined after .* ms lost' || true
}

# The workloads entry S[:MS][/W] runs: W if it is among --workloads, else none; every one without /W.
workloads_of() {
  if [[ "$1" == */* ]]; then
    [[ " $WORKLOADS " != *" ${1#*/} "* ]] || echo "${1#*/}"
  else
    echo "$WORKLOADS"
  fi
}

# A JIT setting the launcher does not know stops start with the reason, before any node runs.
jit_rc=0
GTRAN_NODE_JIT=fast "${CLUSTER[@]}" start > "$WORK/bad-jit.txt" 2>&1 || jit_rc=$?
[ "$jit_rc" -eq 2 ] && grep -q "GTRAN_NODE_JIT must be auto, quick or full, not 'fast'" "$WORK/bad-jit.txt" \
  || fail "GTRAN_NODE_JIT=fast was not refused (exit $jit_rc): $(cat "$WORK/bad-jit.txt")"
start_cluster
# An edge's user id given through two nodes names one edge, as every node answers (issue 35, scenario 7).
bin/gtran check user-ids --hosts "$WORK/hosts" | tee "$WORK/user-ids.txt" || fail "user ids"
grep -q '^USER_IDS_CHECK .* result=pass$' "$WORK/user-ids.txt" || fail "user ids"
for entry in $SCHEDULES; do
  workloads=$(workloads_of "$entry"); entry="${entry%/*}"
  schedule="${entry%%:*}"
  case "$schedule" in kill|restart|crash) continue ;; esac
  fault_ms=$((SECONDS_PER_RUN * 1000 / 3)); seconds=$SECONDS_PER_RUN
  if [ "$entry" != "$schedule" ]; then
    fault_ms="${entry#*:}"
    # at least a third of the run before the fault and as long after it
    [ $((seconds * 1000)) -ge $((fault_ms * 2)) ] || seconds=$(((fault_ms * 2 + 999) / 1000))
  fi
  for workload in $workloads; do
    rejoins_before=$(rejoins)
    bin/gtran check cluster --hosts "$WORK/hosts" --workload "$workload" --schedule "$schedule" --fault-ms "$fault_ms" \
      --seconds "$seconds" --seed "$SEED" --cluster-cmd "${CLUSTER[*]}" | tee "$WORK/check.txt" \
      || fail "check $workload under $entry"
    grep -q "^CLUSTER_CHECK workload=$workload schedule=$schedule .* anomalies=0 .* lost=0 .*served_after_heal=true result=pass$" \
      "$WORK/check.txt" || fail "check $workload under $entry did not pass"
    rejoined=$(($(rejoins) - rejoins_before))
    case "$schedule" in
      pause|partition|isolate|link|master)
        if [ "$fault_ms" -gt "$PEER_LOST_AFTER_MS" ]; then
          [ "$rejoined" -gt 0 ] || fail "$entry outlasts the loss bound, yet no node logged a rejoin"
        else
          [ "$rejoined" -eq 0 ] || fail "$entry is shorter than the loss bound, yet $rejoined rejoin(s) were logged"
        fi ;;
    esac
    echo "CLUSTER_SCHEDULE $entry workload=$workload passed rejoins=$rejoined"
  done
  # After a heal the cluster serves again: every node hears from every other.
  "${CLUSTER[@]}" await-up 60 > "$WORK/status.txt" || fail "the cluster did not recover after $schedule"
done

if [[ " $SCHEDULES " == *" kill"* ]]; then
  for workload in $WORKLOADS; do
    if [ "$workload" != "${WORKLOADS%% *}" ]; then
      "${CLUSTER[@]}" stop; start_cluster # the kill schedule leaves node 2 dead: all start again on their data
    fi
    bin/gtran check cluster --hosts "$WORK/hosts" --workload "$workload" --schedule kill \
      --seconds "$SECONDS_PER_RUN" --seed "$SEED" --cluster-cmd "${CLUSTER[*]}" | tee "$WORK/check.txt" \
      || fail "check $workload under kill"
    grep -q "^CLUSTER_CHECK workload=$workload schedule=kill .* anomalies=0 .* lost=0 .*served_after_heal=true result=pass$" \
      "$WORK/check.txt" || fail "check $workload under kill did not pass"
  done
  "${CLUSTER[@]}" stop; start_cluster
fi

# The restarts: node 2 alone, then every node at once.
for entry in $SCHEDULES; do
  workloads=$(workloads_of "$entry"); schedule="${entry%/*}"
  case "$schedule" in restart|crash) ;; *) continue ;; esac
  for workload in $workloads; do
    bin/gtran check cluster --hosts "$WORK/hosts" --workload "$workload" --schedule "$schedule" \
      --seconds "$SECONDS_PER_RUN" --seed "$SEED" --cluster-cmd "${CLUSTER[*]}" | tee "$WORK/check.txt" \
      || fail "check $workload under $schedule"
    grep -q "^CLUSTER_CHECK workload=$workload schedule=$schedule .* anomalies=0 .* lost=0 unavailable_keys=0 .*served_after_heal=true result=pass$" \
      "$WORK/check.txt" || fail "check $workload under $schedule did not pass"
    committed="$(grep -o 'committed_after_heal=[^ ]*' "$WORK/check.txt")"
    for k in 0 1 2; do
      [ "$schedule" = crash ] || [ "$k" = 2 ] || continue
      [[ "$committed" =~ node$k=[1-9] ]] || fail "node $k committed nothing after its restart ($workload under $schedule)"
    done
    echo "CLUSTER_SCHEDULE $schedule workload=$workload passed $committed"
  done
done

# status reports a killed node lost within the documented bound.
"${CLUSTER[@]}" kill 1
killed_at=$SECONDS
while :; do
  "${CLUSTER[@]}" status > "$WORK/status.txt"
  if grep -q 'node=0 .* lost=1 ' "$WORK/status.txt" && grep -q 'node=2 .* lost=1 ' "$WORK/status.txt"; then break; fi
  [ $((SECONDS - killed_at)) -le $((LOST_BOUND_S * 3)) ] || fail "node 1 not reported lost $((SECONDS - killed_at)) s after SIGKILL"
  sleep 0.5
done
lost_after=$((SECONDS - killed_at))
cat "$WORK/status.txt"
echo "CLUSTER_LOST node=1 reported_after_s=$lost_after bound_s=$LOST_BOUND_S"
[ "$lost_after" -le "$LOST_BOUND_S" ] || fail "node 1 reported lost after $lost_after s, over the $LOST_BOUND_S s bound"

"${CLUSTER[@]}" stop | tee "$WORK/stop.txt"
grep -q '^CLUSTER stopped' "$WORK/stop.txt" || fail "stop"
if pgrep -f "$WORK/run" > /dev/null || pgrep -f "$FAKE_SSH_ROOT" > /dev/null; then fail "a node process is left after stop"; fi
echo "CLUSTER_FAULTS passed"
