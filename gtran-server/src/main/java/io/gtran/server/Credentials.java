package io.gtran.server;

import static org.apache.tinkerpop.gremlin.server.auth.SimpleAuthenticator.CONFIG_CREDENTIALS_DB;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import org.apache.tinkerpop.gremlin.groovy.jsr223.dsl.credential.CredentialTraversalSource;
import org.apache.tinkerpop.gremlin.tinkergraph.structure.TinkerGraph;

/**
 * Users of a node with authentication on: Gremlin Server's {@code SimpleAuthenticator} reads
 * usernames and bcrypt password hashes from a small TinkerGraph saved as a Gryo file ({@value
 * CONFIG_CREDENTIALS_DB} in the YAML names a properties file pointing at it).
 * {@code bin/gtran credentials --file FILE --user U --password P} adds or replaces a user.
 */
public final class Credentials {
    private Credentials() {
    }

    /**
     * Adds {@code user} (replacing its password if it exists) to the credentials graph in {@code file},
     * creating the file if needed. The graph is written to a temporary file beside it that then
     * replaces it, so a failure leaves {@code file} as it was (or absent), never empty or partial.
     */
    public static void addUser(Path file, String user, String password) {
        if (user == null || user.isEmpty() || password == null || password.isEmpty()) {
            throw new IllegalArgumentException("user and password must not be empty");
        }
        Path target = file.toAbsolutePath();
        Path temp = target.resolveSibling(target.getFileName() + ".tmp-" + ProcessHandle.current().pid());
        try {
            Files.deleteIfExists(temp);
            if (Files.exists(target)) {
                Files.copy(target, temp);
            }
            org.apache.commons.configuration2.BaseConfiguration conf = new org.apache.commons.configuration2.BaseConfiguration();
            conf.setProperty(TinkerGraph.GREMLIN_TINKERGRAPH_GRAPH_LOCATION, temp.toString());
            conf.setProperty(TinkerGraph.GREMLIN_TINKERGRAPH_GRAPH_FORMAT, "gryo");
            conf.setProperty(TinkerGraph.GREMLIN_TINKERGRAPH_VERTEX_ID_MANAGER, "LONG");
            try (TinkerGraph graph = TinkerGraph.open(conf)) {
                CredentialTraversalSource credentials = graph.traversal(CredentialTraversalSource.class);
                credentials.users(user).drop().iterate();
                credentials.user(user, password).iterate();
            } // close() writes the graph to temp
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (Exception e) {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            throw new IllegalStateException("could not write credentials to " + file + ": " + root, e);
        }
    }

    /** Writes the properties file {@code SimpleAuthenticator}'s {@code credentialsDb} names, for {@code kryo}. */
    public static Path writeCredentialsProperties(Path properties, Path kryo) {
        try {
            Files.writeString(properties, "gremlin.graph=org.apache.tinkerpop.gremlin.tinkergraph.structure.TinkerGraph\n"
                    + "gremlin.tinkergraph.vertexIdManager=LONG\n"
                    + "gremlin.tinkergraph.graphLocation=" + kryo.toAbsolutePath().toString().replace('\\', '/') + "\n"
                    + "gremlin.tinkergraph.graphFormat=gryo\n");
            return properties;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** {@code --file FILE --user U --password P} */
    public static void main(String[] args) {
        String file = null;
        String user = null;
        String password = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--file": file = args[i + 1]; break;
                case "--user": user = args[i + 1]; break;
                case "--password": password = args[i + 1]; break;
                default:
                    System.err.println("gtran credentials: unknown option " + args[i]);
                    System.exit(2);
            }
        }
        if (file == null || user == null || password == null) {
            System.err.println("usage: bin/gtran credentials --file FILE.kryo --user U --password P");
            System.exit(2);
        }
        try {
            addUser(Paths.get(file), user, password);
        } catch (RuntimeException e) {
            System.err.println("gtran credentials: " + e.getMessage());
            System.exit(1);
        }
        System.out.println("user " + user + " written to " + new File(file).getAbsolutePath());
    }
}
