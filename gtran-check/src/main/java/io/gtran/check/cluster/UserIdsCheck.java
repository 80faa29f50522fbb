package io.gtran.check.cluster;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.__;
import org.apache.tinkerpop.gremlin.structure.T;

/**
 * {@code bin/gtran check user-ids --hosts FILE}: a user's edge id names one edge across a running
 * cluster (issue 35, scenario 7), through gremlin-driver as a new user would try it. An edge lives
 * with its out-vertex: through the first node it adds an edge from a vertex on one member, with
 * user id E, and commits; through the second, an edge from a vertex on another member with the same
 * id must be refused; then
 * {@code g.E(E)} through every node must answer the first edge. Ends with one {@code
 * USER_IDS_CHECK ...} line; exit 0 on pass, 1 on fail, 2 on a bad option.
 */
public final class UserIdsCheck {
    private static final long TIMEOUT_MS = 30_000;

    private UserIdsCheck() {
    }

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out));
    }

    static int run(String[] args, PrintStream out) throws Exception {
        if (args.length != 2 || !args[0].equals("--hosts")) {
            out.println("usage: bin/gtran check user-ids --hosts FILE");
            return 2;
        }
        List<Host> hosts = Host.read(Path.of(args[1]));
        if (hosts.size() < 2) {
            out.println("USER_IDS_CHECK result=fail reason=\"needs two nodes at least, the hosts file names " + hosts.size() + "\"");
            return 1;
        }
        String id = "E-" + Long.toHexString(System.nanoTime());
        List<String> failures = new ArrayList<>();
        try (RemoteNodes nodes = new RemoteNodes(hosts, "g", TIMEOUT_MS)) {
            // Vertices on several members (the deploy templates spread them); the edge lives with its out-vertex.
            long[] vertices = nodes.createKeys(hosts.size(), "user_ids", "check", id);
            int[] owners = RemoteNodes.owners(vertices);
            int other = 1;
            while (other < vertices.length && owners[other] == owners[0]) {
                other++;
            }
            if (other == vertices.length) {
                failures.add("the vertices all live on node " + owners[0] + ": no two members to bind the id on");
                other = 0;
            }
            long home = vertices[0];
            long away = vertices[other];
            RemoteNodes.Attempt<Object> first = nodes.transaction(0, g -> {
                g.V(home).addE("first").to(__.V(home)).property(T.id, id).iterate();
                return null;
            });
            if (!first.ok()) {
                failures.add("the first edge (on node " + owners[0] + ") did not commit: " + first.error());
            }
            RemoteNodes.Attempt<Object> second = nodes.transaction(1, g -> {
                g.V(away).addE("second").to(__.V(away)).property(T.id, id).iterate();
                return null;
            });
            if (second.ok()) {
                failures.add("a second edge known by " + id + " committed on node " + owners[other]);
            }
            for (int k = 0; k < nodes.size(); k++) {
                RemoteNodes.Attempt<List<String>> found = nodes.transaction(k, g -> g.E(id).label().toList());
                if (!found.ok() || !found.value().equals(List.of("first"))) {
                    failures.add("g.E('" + id + "') through node " + hosts.get(k).id() + " answered "
                            + (found.ok() ? found.value() : found.error()) + ", not the first edge alone");
                }
            }
        }
        boolean pass = failures.isEmpty();
        out.println("USER_IDS_CHECK edge_id=" + id + " nodes=" + hosts.size() + " result=" + (pass ? "pass" : "fail")
                + (pass ? "" : " reasons=\"" + String.join("; ", failures).replace('"', '\'') + "\""));
        return pass ? 0 : 1;
    }
}
