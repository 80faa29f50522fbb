package io.gtran.txn.membership;

import io.gtran.rdma.ClusterConfig;
import io.gtran.rdma.Fabric;
import io.gtran.storage.Settings;
import io.gtran.storage.StoreConfig;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The nodes of a node's cluster, by id, this node's included: the {@code gtran.cluster.*}
 * settings. A cluster of one (the default) runs as a single node always has: its own clock, its
 * own GC watermark. With more members the node's clock is synchronised with theirs and its GC
 * watermark is the cluster's (docs/transactions.md).
 *
 * <p>Where the members come from: on a networked fabric, {@code gtran.fabric.nodes} (every node
 * of the list, by index); on an in-JVM cluster or a fabric given to the node,
 * {@code gtran.cluster.nodes}, a comma-separated list of node ids ({@code 0,1,2}). A node opened
 * with neither runs alone.
 */
public final class Membership {
    /** The cluster's node ids, comma-separated; this node's must be one. Default: this node alone. */
    public static final String NODES = "gtran.cluster.nodes";

    private static final Set<String> KNOWN = Set.of(NODES, GroupConfig.PORT_OFFSET, GroupConfig.DIR);

    private final int self;
    private final List<Integer> nodes;

    private Membership(int self, TreeSet<Integer> nodes) {
        this.self = self;
        this.nodes = Collections.unmodifiableList(new ArrayList<>(nodes));
    }

    /** This node alone. */
    public static Membership single(int self) {
        return new Membership(self, new TreeSet<>(List.of(self)));
    }

    /**
     * The members {@code gtran.cluster.nodes} names, or {@code self} alone if it is absent. Other
     * keys are ignored, so a whole node configuration can be passed.
     *
     * @throws IllegalArgumentException naming the key and value if a {@code gtran.cluster.*} key is
     *     unknown, or the list is malformed, empty, names an id outside {@code 0..}{@link Fabric#MAX_NODE}
     *     or one id twice, or leaves {@code self} out
     */
    public static Membership from(Map<String, ?> settings, int self) {
        refuseUnknownKeys(settings);
        Object raw = settings.get(NODES);
        return raw == null ? single(self) : new Membership(self, parse(raw, self));
    }

    /**
     * The members of a networked cluster: every node of {@code gtran.fabric.nodes}. A
     * {@code gtran.cluster.nodes} setting beside it must name the same ids.
     *
     * @throws IllegalArgumentException naming the keys and values if they disagree, or as {@link #from}
     */
    public static Membership of(ClusterConfig fabric, Map<String, ?> settings) {
        TreeSet<Integer> nodes = new TreeSet<>();
        for (int n = 0; n < fabric.nodes().size(); n++) {
            nodes.add(n);
        }
        Membership members = new Membership(fabric.localNode(), nodes);
        refuseUnknownKeys(settings);
        Object raw = settings.get(NODES);
        if (raw != null && !parse(raw, fabric.localNode()).equals(nodes)) {
            throw new IllegalArgumentException("configuration " + NODES + "=" + raw + " names other nodes than "
                    + ClusterConfig.NODES + " (node ids " + members.describe() + "); leave " + NODES + " out on a networked fabric");
        }
        return members;
    }

    private static void refuseUnknownKeys(Map<String, ?> settings) {
        Settings.of(settings, "gtran.cluster.", KNOWN);
    }

    private static TreeSet<Integer> parse(Object raw, int self) {
        List<String> parts = new ArrayList<>();
        if (raw instanceof Collection<?> list) {
            list.forEach(v -> parts.add(String.valueOf(v).trim()));
        } else {
            for (String part : raw.toString().split(",", -1)) {
                parts.add(part.trim());
            }
        }
        String value = raw instanceof Collection<?> list ? String.join(",", parts) : raw.toString();
        TreeSet<Integer> nodes = new TreeSet<>();
        for (String part : parts) {
            int node;
            try {
                node = Integer.parseInt(part);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("configuration " + NODES + " must be node ids separated by commas: "
                        + NODES + "=" + value);
            }
            if (node < 0 || node > Fabric.MAX_NODE) {
                throw new IllegalArgumentException("configuration " + NODES + " names a node id outside [0, " + Fabric.MAX_NODE
                        + "]: " + node + " in " + NODES + "=" + value);
            }
            if (!nodes.add(node)) {
                throw new IllegalArgumentException("configuration " + NODES + " names node " + node + " twice: " + NODES
                        + "=" + value);
            }
        }
        if (!nodes.contains(self)) {
            throw new IllegalArgumentException("configuration " + NODES + " must include this node (" + StoreConfig.NODE_ID
                    + "=" + self + "): " + NODES + "=" + value);
        }
        return nodes;
    }

    /** This node's id. */
    public int self() {
        return self;
    }

    /** Every member's id, ascending, this node's included. */
    public List<Integer> nodes() {
        return nodes;
    }

    /** The members other than this node, ascending. */
    public List<Integer> others() {
        List<Integer> others = new ArrayList<>(nodes);
        others.remove(Integer.valueOf(self));
        return others;
    }

    public int size() {
        return nodes.size();
    }

    /** Whether this node is the cluster's only member. */
    public boolean isSingle() {
        return nodes.size() == 1;
    }

    public boolean contains(int node) {
        return nodes.contains(node);
    }

    private String describe() {
        StringBuilder s = new StringBuilder();
        for (int node : nodes) {
            s.append(s.length() == 0 ? "" : ",").append(node);
        }
        return s.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Membership other && self == other.self && nodes.equals(other.nodes);
    }

    @Override
    public int hashCode() {
        return 31 * self + nodes.hashCode();
    }

    @Override
    public String toString() {
        return "Membership[self=" + self + ", nodes=" + describe() + "]";
    }
}
