package io.gtran.txn.membership;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where a networked node's part of the membership group listens and keeps its log (the
 * {@code gtran.cluster.group-*} settings; docs/cluster-transactions.md, "Membership decided by
 * consensus"): each member's Ratis server listens on its fabric address's host, at its fabric
 * port plus {@link #PORT_OFFSET}, so the hosts file names every port already.
 */
public record GroupConfig(int portOffset, Path dir) {
    /** Added to each member's fabric port to give its Ratis port. Default 1000. */
    public static final String PORT_OFFSET = "gtran.cluster.group-port-offset";
    /**
     * Where this node's Ratis server keeps the group's log, a directory of its own per node and
     * port below it. Default: {@code gtran-membership} in {@code java.io.tmpdir}.
     */
    public static final String DIR = "gtran.cluster.group-dir";
    public static final int DEFAULT_PORT_OFFSET = 1000;
    /** How long a proposal may take to be committed before the proposer is told it failed (it asks again). */
    public static final long PROPOSE_TIMEOUT_MS = 3_000;

    /**
     * The settings' group configuration, defaults for what is absent.
     *
     * @throws IllegalArgumentException naming the key and value if one is malformed
     */
    public static GroupConfig from(Map<String, ?> settings) {
        Object offset = settings.get(PORT_OFFSET);
        int portOffset = DEFAULT_PORT_OFFSET;
        if (offset != null) {
            try {
                portOffset = Integer.parseInt(offset.toString().trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("configuration " + PORT_OFFSET + " must be a whole number: " + PORT_OFFSET
                        + "=" + offset);
            }
            if (portOffset < 1 || portOffset > 60_000) {
                throw new IllegalArgumentException("configuration " + PORT_OFFSET + " must be in [1, 60000]: " + PORT_OFFSET
                        + "=" + offset);
            }
        }
        Object dir = settings.get(DIR);
        Path path = dir == null || dir.toString().isBlank() ? Path.of(System.getProperty("java.io.tmpdir"), "gtran-membership")
                : Path.of(dir.toString().trim());
        return new GroupConfig(portOffset, path);
    }

    /**
     * Every member's Ratis address: its fabric address's host at its fabric port plus the offset.
     *
     * @throws IllegalArgumentException naming the member and the keys if a port would be above 65535
     */
    public Map<Integer, InetSocketAddress> addresses(List<InetSocketAddress> fabric) {
        Map<Integer, InetSocketAddress> addresses = new TreeMap<>();
        for (int node = 0; node < fabric.size(); node++) {
            InetSocketAddress at = fabric.get(node);
            int port = at.getPort() + portOffset;
            if (port > 65_535) {
                throw new IllegalArgumentException("configuration " + PORT_OFFSET + "=" + portOffset + " puts node " + node
                        + "'s membership group port above 65535 (its fabric port is " + at.getPort() + "); choose a smaller"
                        + " offset");
            }
            addresses.put(node, new InetSocketAddress(at.getHostString(), port));
        }
        return addresses;
    }

    /** This node's own directory below {@link #dir}: one per node and Ratis port, so nodes on one host keep theirs apart. */
    public Path dirOf(int node, InetSocketAddress address) {
        return dir.resolve("n" + node + "-" + address.getPort());
    }
}
