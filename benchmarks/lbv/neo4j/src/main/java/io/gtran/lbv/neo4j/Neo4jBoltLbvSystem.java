package io.gtran.lbv.neo4j;

import io.gtran.lbv.Dataset;
import io.gtran.lbv.LatencyQuery;
import io.gtran.lbv.LbvQuery;
import io.gtran.lbv.LbvSystem;
import io.gtran.lbv.LoadProgress;
import io.gtran.lbv.QueryParams;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.ConnectorPortRegister;
import org.neo4j.configuration.connectors.ConnectorType;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.driver.AccessMode;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Config;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.Result;
import org.neo4j.driver.Session;
import org.neo4j.driver.SessionConfig;
import org.neo4j.driver.Transaction;
import org.neo4j.driver.exceptions.Neo4jException;
import org.neo4j.driver.exceptions.TransientException;
import org.neo4j.graphdb.config.Setting;
import org.neo4j.internal.helpers.HostnamePort;
import org.neo4j.kernel.internal.GraphDatabaseAPI;

import java.util.Map;

/**
 * Neo4j as a server: the embedded database of {@link Neo4jLbvSystem} with its Bolt connector on
 * (127.0.0.1, a port the operating system picks, no authentication, no encryption), loaded
 * straight into the embedded database (as {@code neo4j} loads), then every query through the
 * Neo4j Java driver over the loopback connection, as a client's would. The texts and parameters
 * are {@code neo4j}'s ({@link CypherQueries}, through {@link CypherRunner}), and the texts are
 * planned while loading as there (one query cache serves embedded and Bolt queries alike).
 *
 * <p>Each query is one explicit driver transaction ({@code beginTransaction}, run, consume,
 * {@code commit}) in a <b>session of its own</b>: a session is a cheap object over the driver's
 * connection pool, so a session per query costs no connection, and no session outlives the query
 * or is shared between threads. Explicit rather than managed ({@code executeWrite}) transactions,
 * because a managed one retries a transient failure itself, which would hide the aborts the
 * benchmark counts.
 *
 * <p>Options: those of {@link Neo4jLbvSystem}.
 */
public final class Neo4jBoltLbvSystem implements LbvSystem {
    private static final String HOST = "127.0.0.1";
    /** Cypher's status of a matched element deleted by a concurrent commit before this transaction wrote to it. */
    private static final String ENTITY_NOT_FOUND = "Neo.ClientError.Statement.EntityNotFound";
    private static final SessionConfig SESSION = SessionConfig.builder().withDefaultAccessMode(AccessMode.WRITE).build();

    private final Neo4jLbvSystem embedded;
    private final int port;
    private final Driver driver;

    public Neo4jBoltLbvSystem(Map<String, String> options) {
        Map<Setting<?>, Object> bolt = Map.of(
                BoltConnector.enabled, true,
                BoltConnector.listen_address, new SocketAddress(HOST, 0),
                BoltConnector.encryption_level, BoltConnector.EncryptionLevel.DISABLED,
                GraphDatabaseSettings.auth_enabled, false);
        this.embedded = new Neo4jLbvSystem(options, bolt);
        try {
            HostnamePort bound = ((GraphDatabaseAPI) embedded.database()).getDependencyResolver()
                    .resolveDependency(ConnectorPortRegister.class).getLocalAddress(ConnectorType.BOLT);
            if (bound == null) {
                throw new IllegalStateException("Neo4j's Bolt connector did not start: listen_address=" + HOST + ":0");
            }
            this.port = bound.getPort();
            this.driver = GraphDatabase.driver("bolt://" + HOST + ":" + port, AuthTokens.none(),
                    Config.builder().withoutEncryption().build());
            driver.verifyConnectivity();
        } catch (RuntimeException e) {
            embedded.close();
            throw e;
        }
    }

    @Override
    public String name() {
        return "neo4j-bolt";
    }

    @Override
    public String isolation() {
        return embedded.isolation();
    }

    /** Into the embedded database, as {@code neo4j} loads. */
    @Override
    public void load(Dataset dataset, LoadProgress progress) {
        embedded.load(dataset, progress);
    }

    @Override
    public long execute(LbvQuery query, QueryParams params) {
        return embedded.execute(query, params, this::run);
    }

    @Override
    public long latency(LatencyQuery query, QueryParams params) {
        return embedded.latency(query, params, this::run);
    }

    /** The Bolt {@link CypherRunner}: a session, one explicit transaction, its rows counted, committed. */
    private long run(String text, Map<String, Object> params) {
        long count = 0;
        try (Session session = driver.session(SESSION); Transaction tx = session.beginTransaction()) {
            Result result = tx.run(text, params);
            if (CypherRunner.returnsCount(text)) {
                count = result.single().get("n").asLong();
            } else {
                while (result.hasNext()) {
                    result.next();
                    count++;
                }
            }
            tx.commit();
        }
        return count;
    }

    /** The Bolt connector's port; for tests. */
    int port() {
        return port;
    }

    /**
     * Neo4j's transient errors as the driver reports them ({@link TransientException}: a detected
     * deadlock, a lock wait past {@code lockTimeout}, any {@code Neo.TransientError.*}), the
     * read-committed deletion race that {@link Neo4jLbvSystem#isRetryable} retries, and whatever
     * the embedded system retries (a failure while loading).
     */
    @Override
    public boolean isRetryable(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof TransientException) {
                return true;
            }
            if (t instanceof Neo4jException e && e.code() != null
                    && (e.code().startsWith("Neo.TransientError.") || e.code().equals(ENTITY_NOT_FOUND))) {
                return true;
            }
        }
        return embedded.isRetryable(failure);
    }

    /** Closes the driver, then the database (which stops its Bolt connector) and deletes its directory. */
    @Override
    public void close() {
        try {
            driver.close();
        } finally {
            embedded.close();
        }
    }
}
