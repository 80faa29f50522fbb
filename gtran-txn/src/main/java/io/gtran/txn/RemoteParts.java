package io.gtran.txn;

import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.ElementNotFoundException;
import io.gtran.txn.common.ReplyTooLargeException;
import io.gtran.txn.membership.Membership;
import io.gtran.txn.protocol.Op;
import io.gtran.txn.protocol.OpsMessage;
import io.gtran.txn.protocol.Wire;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;


/**
 * A coordinator's record of the parts of one transaction on other nodes (its participants), and
 * the calls that run operations there. Each call's answer says whether the part has written and
 * has pre-read dependencies, which is what commit needs to know. {@link #NONE} is the record of a
 * transaction that calls no other node: on a node alone in its cluster, and a participant's part.
 */
class RemoteParts {
    /** No other member to call: every element is this node's, every fan-out reaches no one. */
    static final RemoteParts NONE = new NoParts();

    private static final int[] NO_NODES = new int[0];

    /** One other node's part, as far as the coordinator knows. */
    static final class Part {
        final int node;
        int seq;
        boolean wrote;
        boolean preReads;

        Part(int node) {
            this.node = node;
        }
    }

    private final Transaction txn;
    private final ClusterParts cluster;
    private final Membership members;
    private final Map<Integer, Part> parts = new TreeMap<>();
    /**
     * Set while a pushed chain runs, and after one failed: other members may hold parts this
     * coordinator has not heard of, so an abort goes to every member (see {@link Chains}).
     */
    boolean partsUnknown;

    RemoteParts(Transaction txn, ClusterParts cluster, Membership members) {
        this.txn = txn;
        this.cluster = cluster;
        this.members = members;
    }

    /** The record of a transaction that calls no other node. */
    private static final class NoParts extends RemoteParts {
        NoParts() {
            super(null, null, null);
        }

        @Override
        int remoteOwner(long element) {
            return -1;
        }

        @Override
        int[] otherMembers() {
            return NO_NODES;
        }

        @Override
        boolean otherMembersEmpty() {
            return true;
        }

        @Override
        Wire.Reader[] callEach(int[] nodes, IntFunction<Op> ops) {
            if (nodes.length > 0) {
                throw new IllegalStateException("no other member to run " + ops.apply(0).type() + " at: nodes="
                        + java.util.Arrays.toString(nodes));
            }
            return new Wire.Reader[0];
        }

        @Override
        void adopt(int node, boolean wrote, boolean preReads) {
            throw new IllegalStateException("no part at node " + node + " for a transaction that calls no other node");
        }
    }

    /** The node an element belongs to if it is another member, else -1 (this node's, or no member's). */
    int remoteOwner(long element) {
        return cluster.remoteOwner(element);
    }

    /** The other members, for operations that span every node (scans, counts). */
    int[] otherMembers() {
        return members.others().stream().mapToInt(Integer::intValue).sorted().toArray();
    }

    /** Whether this node is the only member (a membership always holds its own node). */
    boolean otherMembersEmpty() {
        return members.isSingle(); // no copy of the member list: called on every routed read
    }

    boolean isEmpty() {
        return parts.isEmpty();
    }

    boolean anyWrote() {
        for (Part p : parts.values()) {
            if (p.wrote) {
                return true;
            }
        }
        return false;
    }

    /** Requests sent to each node so far in this transaction (resends not counted), by node. */
    Map<Integer, Integer> callsByNode() {
        Map<Integer, Integer> calls = new TreeMap<>();
        parts.forEach((node, part) -> calls.put(node, part.seq));
        return calls;
    }

    /** Notes a part that a pushed chain made at {@code node}, with what it reported of it. */
    void adopt(int node, boolean wrote, boolean preReads) {
        Part part = parts.computeIfAbsent(node, Part::new);
        part.wrote |= wrote;
        part.preReads |= preReads;
    }

    /** The nodes an abort must reach: those holding a part, or every other member while {@link #partsUnknown}. */
    int[] abortTargets() {
        return partsUnknown ? otherMembers() : nodes();
    }

    /** The nodes holding a part, ascending. */
    int[] nodes() {
        return parts.keySet().stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * Runs {@code op} at {@code node} and returns its result. A conflict there aborts the whole
     * transaction (the part aborted itself already); an element missing there throws as it would
     * here; an answer that does not come aborts the transaction ({@link ConflictKind#PARTICIPANT_UNREACHABLE}).
     */
    Wire.Reader call(int node, Op op) {
        return callEach(new int[] {node}, i -> op)[0];
    }

    /**
     * Runs operation {@code ops.apply(i)} at the i-th of {@code nodes} (distinct), all at once, and returns their results in the same order once all have answered; failures as
     * {@link #call}, the first node's in {@code nodes} order reported.
     */
    Wire.Reader[] callEach(int[] nodes, IntFunction<Op> ops) {
        txn.ensureActive();
        Part[] asked = new Part[nodes.length];
        int[] seqs = new int[nodes.length];
        for (int i = 0; i < nodes.length; i++) {
            asked[i] = parts.computeIfAbsent(nodes[i], Part::new);
            seqs[i] = ++asked[i].seq;
            txn.engine.remoteCalls.increment();
        }
        byte[][] encoded = new byte[nodes.length][]; // each node's own operation: one request per node, sent together
        for (int i = 0; i < nodes.length; i++) {
            encoded[i] = Op.encode(ops.apply(i));
        }
        OpsMessage.Answer[] replies;
        try {
            replies = cluster.callAll(nodes, txn, seqs, encoded);
        } catch (TimeoutException e) {
            throw txn.conflict(ConflictKind.PARTICIPANT_UNREACHABLE, 0, null, e.getMessage());
        }
        for (int i = 0; i < nodes.length; i++) {
            asked[i].wrote |= replies[i].wrote();
            asked[i].preReads |= replies[i].preReads();
        }
        Wire.Reader[] results = new Wire.Reader[nodes.length];
        for (int i = 0; i < nodes.length; i++) {
            results[i] = result(nodes[i], replies[i]);
        }
        return results;
    }

    /**
     * Runs each node's operations there in order ({@link Op.Many}, docs/cluster-transactions.md,
     * "Execution": batched writes), the nodes' requests sent together, and returns each node's
     * results: the {@code i}-th reader holds operation {@code i}'s result next (operations sent in
     * one request share its reader, so read them in order). Failures as {@link #call}; a failure
     * leaves the operations before it done.
     */
    Map<Integer, java.util.List<Wire.Reader>> callMany(Map<Integer, java.util.List<Op>> opsByNode) {
        Map<Integer, java.util.List<Op.Many>> chunks = new TreeMap<>();
        opsByNode.forEach((node, ops) -> {
            if (!ops.isEmpty()) {
                chunks.put(node, Op.Many.chunks(ops));
            }
        });
        Map<Integer, java.util.List<Wire.Reader>> results = new TreeMap<>();
        chunks.keySet().forEach(node -> results.put(node, new java.util.ArrayList<>()));
        for (int round = 0; ; round++) {
            int r = round;
            int[] nodes = chunks.entrySet().stream().filter(e -> e.getValue().size() > r).mapToInt(Map.Entry::getKey).toArray();
            if (nodes.length == 0) {
                return results;
            }
            Wire.Reader[] replies = callEach(nodes, i -> chunks.get(nodes[i]).get(r));
            for (int i = 0; i < nodes.length; i++) {
                for (int k = chunks.get(nodes[i]).get(r).ops().size(); k > 0; k--) {
                    results.get(nodes[i]).add(replies[i]); // a chunk's size varies: cut by count and by bytes
                }
            }
        }
    }

    /** What {@code answer} from {@code node} means: the result it carries, or the exception it reports. */
    private Wire.Reader result(int node, OpsMessage.Answer answer) {
        if (answer instanceof OpsMessage.Done done) {
            return new Wire.Reader(done.result());
        }
        if (answer instanceof OpsMessage.Conflict c) {
            throw txn.remoteConflict(c.kind(), c.other(), c.on(), "at node " + node + (c.detail() == null ? "" : ": " + c.detail()));
        }
        if (answer instanceof OpsMessage.NotFound missing) {
            throw new ElementNotFoundException(missing.message(), missing.element(), true);
        }
        if (answer instanceof OpsMessage.Refused refused) {
            throw txn.conflict(ConflictKind.PARTICIPANT_UNREACHABLE, 0, null, refused.reason());
        }
        OpsMessage.Failed failed = (OpsMessage.Failed) answer;
        String message = "at node " + node + ": " + failed.message();
        switch (failed.type()) {
            case "java.lang.IllegalArgumentException" -> throw new IllegalArgumentException(message);
            case "java.lang.UnsupportedOperationException" -> throw new UnsupportedOperationException(message);
            case "io.gtran.txn.common.ReplyTooLargeException" -> throw new ReplyTooLargeException(failed.message());
            default -> throw new IllegalStateException(failed.type() + " " + message);
        }
    }

    /**
     * A read-only transaction's end: each part whose reads depended on a validating writer waits
     * there for it to commit (one round trip to each such part; none when there are none).
     */
    void resolvePreReads() {
        for (Part part : parts.values().toArray(new Part[0])) {
            if (part.preReads) {
                call(part.node, new Op.Resolve());
            }
        }
    }
}
