package io.gtran.core;

import io.gtran.txn.GtranNode;
import io.gtran.txn.TransactionEngine;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A node's status as {@code bin/gtran status} prints it ({@link GtranGraph#status}): members and
 * contact, clock synchronisation, GC watermark and transaction counters. Everything is read from
 * this node's own state: nothing waits on another node, so a node answers while its peers are dead
 * or cut off.
 */
final class NodeStatus {
    private NodeStatus() {
    }

    /** The status of {@code node}, in the order the keys are printed. */
    static Map<String, Object> of(GtranNode node) {
        TransactionEngine engine = node.engine();
        List<Integer> members = List.copyOf(node.members().nodes());
        Set<Integer> inContact = engine.membersInContact();
        List<Integer> lost = new ArrayList<>();
        for (int other : node.members().others()) {
            if (!inContact.contains(other)) {
                lost.add(other);
            }
        }
        GtranNode.ClockState clock = node.clockState();
        Map<String, Long> stats = engine.stats();
        long aborts = 0;
        for (Map.Entry<String, Long> e : stats.entrySet()) {
            if (e.getKey().startsWith("aborts.")) {
                aborts += e.getValue();
            }
        }
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("node", node.id());
        status.put("members", members);
        status.put("in_contact", List.copyOf(inContact));
        status.put("lost", List.copyOf(lost));
        GtranNode.GroupStatus group = node.groupStatus();
        // The membership group's view (processes only; a node alone or an in-JVM cluster has none: "-").
        status.put("group_leader", group == null || group.leader() < 0 ? "-" : group.leader());
        status.put("group_term", group == null ? "-" : group.term());
        status.put("group_lost", group == null ? List.of() : group.lost());
        status.put("clock_synced", clock.synced());
        status.put("clock_master", clock.master());
        status.put("clock_epoch", clock.epoch());
        // How long the master's lease still runs, as this node sees it ("-": no lease kept, a node alone or in one JVM).
        status.put("clock_lease_ms", clock.leaseLeftMillis() == null ? "-" : clock.leaseLeftMillis());
        status.put("clock_uncertainty_us", clock.uncertaintyMicros());
        status.put("clock_offset_ms", node.clockOffsetMillis());
        // A node alone reads no other node for its watermark; a member's would read the others' buffers.
        status.put("watermark", node.members().isSingle() ? engine.watermark() : engine.lastWatermark());
        status.put("running", stats.get("running"));
        status.put("participants", stats.get("participants"));
        status.put("commits", stats.get("commits"));
        status.put("aborts", aborts);
        // Sent by this node since it opened: operation requests and replies and commit messages, not heartbeats,
        // clock samples or watermark reads (QueryTraffic); 0 where the fabric does not count them.
        status.put("messages", node.queryMessages());
        status.put("bytes", node.queryBytes());
        // The node's log (docs/durability.md): its setting, the last record appended and the last on disk; -1: none.
        status.put("durability", engine.commitLog().mode());
        status.put("log_index", engine.commitLog().lastIndex());
        status.put("log_durable", engine.commitLog().durableIndex());
        // The newest snapshot: the log index it covers and its timestamp; -1: none (docs/durability.md, "Snapshots").
        status.put("snapshot_index", engine.commitLog().snapshotIndex());
        status.put("snapshot_time", engine.commitLog().snapshotTime());
        return status;
    }
}
