package io.gtran.txn;

import io.gtran.txn.protocol.Wire;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.ObjIntConsumer;

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
        Wire.Reader[] callEach(int[] nodes, RemoteOp op, ObjIntConsumer<Wire.Writer> args) {
            if (nodes.length > 0) {
                throw new IllegalStateException("no other member to run " + op + " at: nodes=" + java.util.Arrays.toString(nodes));
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
    Wire.Reader call(int node, RemoteOp op, Consumer<Wire.Writer> args) {
        return callEach(new int[] {node}, op, (w, i) -> args.accept(w))[0];
    }

    /**
     * Runs {@code op} at each of {@code nodes} (distinct) at once, with the arguments {@code args}
     * writes for the i-th, and returns their results in the same order once all have answered; failures as
     * {@link #call}, the first node's in {@code nodes} order reported.
     */
    Wire.Reader[] callEach(int[] nodes, RemoteOp op, ObjIntConsumer<Wire.Writer> args) {
        txn.ensureActive();
        Part[] asked = new Part[nodes.length];
        int[] seqs = new int[nodes.length];
        for (int i = 0; i < nodes.length; i++) {
            asked[i] = parts.computeIfAbsent(nodes[i], Part::new);
            seqs[i] = ++asked[i].seq;
            txn.engine.remoteCalls.increment();
        }
        byte[][] ops = new byte[nodes.length][]; // each node's own arguments: one request per node, sent together
        for (int i = 0; i < nodes.length; i++) {
            Wire.Writer w = new Wire.Writer().putByte(op.ordinal());
            args.accept(w, i);
            ops[i] = w.bytes();
        }
        ClusterParts.Reply[] replies;
        try {
            replies = cluster.callAll(nodes, txn, seqs, ops);
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

    /** What {@code reply} from {@code node} means: its body, or the exception it reports. */
    private Wire.Reader result(int node, ClusterParts.Reply reply) {
        Wire.Reader body = new Wire.Reader(reply.body().getBytes());
        switch (reply.status()) {
            case ClusterParts.OK:
                return body;
            case ClusterParts.CONFLICT: {
                ConflictKind kind = ConflictKind.values()[body.getByte()];
                long other = body.getLong();
                String on = body.getString();
                String detail = body.getString();
                throw txn.remoteConflict(kind, other, on, "at node " + node + (detail == null ? "" : ": " + detail));
            }
            case ClusterParts.NOT_FOUND: {
                String message = body.getString();
                throw new ElementNotFoundException(message, body.getLong(), true);
            }
            case ClusterParts.REFUSED:
                throw txn.conflict(ConflictKind.PARTICIPANT_UNREACHABLE, 0, null, body.getString());
            default: {
                String type = body.getString();
                String message = "at node " + node + ": " + body.getString();
                switch (type) {
                    case "java.lang.IllegalArgumentException" -> throw new IllegalArgumentException(message);
                    case "java.lang.UnsupportedOperationException" -> throw new UnsupportedOperationException(message);
                    default -> throw new IllegalStateException(type + " " + message);
                }
            }
        }
    }

    /**
     * A read-only transaction's end: each part whose reads depended on a validating writer waits
     * there for it to commit (one round trip to each such part; none when there are none).
     */
    void resolvePreReads() {
        for (Part part : parts.values().toArray(new Part[0])) {
            if (part.preReads) {
                call(part.node, RemoteOp.RESOLVE, w -> { });
            }
        }
    }
}
