package io.gtran.lbv.neo4j;

import io.gtran.lbv.Dataset;
import io.gtran.lbv.DatasetInfo;
import io.gtran.lbv.LatencyQuery;
import io.gtran.lbv.LbvQuery;
import io.gtran.lbv.LbvSystem;
import io.gtran.lbv.LoadProgress;
import io.gtran.lbv.QueryParams;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.graphdb.QueryExecutionException;
import org.neo4j.graphdb.Result;
import org.neo4j.graphdb.Transaction;
import org.neo4j.graphdb.TransientFailureException;
import org.neo4j.graphdb.config.Setting;
import org.neo4j.kernel.api.exceptions.Status;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Neo4j Community 5.26 embedded as an LBV system: a fresh database in a temporary directory
 * (deleted on {@link #close}), every query in Cypher with parameters ({@link CypherQueries}), each
 * {@link #execute} one transaction.
 *
 * <p>Options: {@value #OPT_DIR} (parent of the temporary directory; default {@code /dev/shm} when
 * it exists, so that Neo4j's commit-time fsync of its transaction log costs what it does for
 * in-memory systems, else {@code java.io.tmpdir}; named {@code neo4j-disk} when given and not
 * under /dev/shm, as for a comparison with gtran logging to disk), {@value #OPT_PAGECACHE} (page cache size, e.g.
 * {@code 512m}; default {@value #DEFAULT_PAGECACHE}, which holds the store and indexes of a
 * 1M-edge graph), {@value #OPT_BATCH} (elements per load transaction, default
 * {@value #DEFAULT_BATCH}), {@value #OPT_LOCK_TIMEOUT} (seconds a transaction waits for a lock,
 * default {@value #DEFAULT_LOCK_TIMEOUT}), {@value #OPT_PREPARE} ({@code true}: plan every query
 * text while loading). The heap is the JVM's ({@code -Xmx}); transaction state
 * is kept on the heap.
 */
public final class Neo4jLbvSystem implements LbvSystem {
    public static final String OPT_DIR = "dir";
    public static final String OPT_PAGECACHE = "pagecache";
    public static final String DEFAULT_PAGECACHE = "512m";
    public static final String OPT_BATCH = "batch";
    public static final int DEFAULT_BATCH = 10_000;
    public static final String OPT_LOCK_TIMEOUT = "lockTimeout";
    public static final int DEFAULT_LOCK_TIMEOUT = 10;
    /** Whether {@link #load} plans every query text in advance (default true; tests turn it off for speed). */
    public static final String OPT_PREPARE = "prepare";

    private static final Set<String> OPTIONS = Set.of(OPT_DIR, OPT_PAGECACHE, OPT_BATCH, OPT_LOCK_TIMEOUT, OPT_PREPARE);

    private final Path home;
    /** neo4j, or neo4j-disk where option dir puts the store (and its transaction log) off /dev/shm. */
    private final String name;
    private final DatabaseManagementService dbms;
    private final GraphDatabaseService db;
    private final int batchSize;
    private final boolean prepare;
    /** Set once by {@link #load}; read by every query thread after the runner starts them. */
    private volatile Loaded loaded;

    /** What {@link #load} leaves: the queries over the dataset's labels and the dataset-id arrays. */
    private record Loaded(CypherQueries queries, long[] nodeIds, long[] relIds) {
    }

    public Neo4jLbvSystem(Map<String, String> options) {
        this(options, Map.of());
    }

    /**
     * The embedded database with {@code config} set after this system's own settings (so it
     * overrides them): {@link Neo4jBoltLbvSystem} turns the Bolt connector on this way.
     */
    Neo4jLbvSystem(Map<String, String> options, Map<Setting<?>, Object> config) {
        for (String key : options.keySet()) {
            if (!OPTIONS.contains(key)) {
                throw new IllegalArgumentException("unknown neo4j option: " + key + "=" + options.get(key)
                        + " (known: " + OPTIONS + ")");
            }
        }
        String prepareOption = options.getOrDefault(OPT_PREPARE, "true");
        if (!prepareOption.equals("true") && !prepareOption.equals("false")) {
            throw new IllegalArgumentException("not true or false: " + OPT_PREPARE + "=" + prepareOption);
        }
        this.prepare = Boolean.parseBoolean(prepareOption);
        this.batchSize = positive(OPT_BATCH, options.getOrDefault(OPT_BATCH, String.valueOf(DEFAULT_BATCH)));
        long pageCache = bytes(OPT_PAGECACHE, options.getOrDefault(OPT_PAGECACHE, DEFAULT_PAGECACHE));
        int lockTimeout = positive(OPT_LOCK_TIMEOUT,
                options.getOrDefault(OPT_LOCK_TIMEOUT, String.valueOf(DEFAULT_LOCK_TIMEOUT)));
        Path shm = Path.of("/dev/shm");
        Path parent = options.containsKey(OPT_DIR) ? Path.of(options.get(OPT_DIR))
                : Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
        this.name = options.containsKey(OPT_DIR) && !parent.toAbsolutePath().startsWith(shm) ? "neo4j-disk" : "neo4j";
        try {
            this.home = Files.createTempDirectory(parent, "lbv-neo4j-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the database directory under " + OPT_DIR + "=" + parent, e);
        }
        this.dbms = start(home, pageCache, lockTimeout, config);
        this.db = dbms.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME);
    }

    private static DatabaseManagementService start(Path home, long pageCache, int lockTimeout,
                                                   Map<Setting<?>, Object> config) {
        try {
            return new DatabaseManagementServiceBuilder(home)
                    .setConfig(GraphDatabaseSettings.pagecache_memory, pageCache)
                    .setConfig(GraphDatabaseSettings.tx_state_memory_allocation,
                            GraphDatabaseSettings.TransactionStateMemoryAllocation.ON_HEAP)
                    .setConfig(GraphDatabaseSettings.lock_acquisition_timeout, Duration.ofSeconds(lockTimeout))
                    .setConfig(GraphDatabaseSettings.keep_logical_logs, "false")
                    .setConfig(GraphDatabaseSettings.preallocate_logical_logs, false)
                    .setConfig(GraphDatabaseSettings.log_queries, GraphDatabaseSettings.LogQueryLevel.OFF)
                    .setConfig(BoltConnector.enabled, false)
                    .setConfig(config)
                    .build();
        } catch (RuntimeException e) {
            deleteTree(home);
            throw e;
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String isolation() {
        return "read committed (Neo4j's default)";
    }

    /**
     * Loads the dataset in batches, then creates the indexes and waits until they are online
     * (building an index over loaded data is faster than maintaining it through the load): a range
     * index per (label, key) for every vertex label and every indexed vertex key and the lookup
     * key, and per (type, key) for every relationship type and indexed edge key. Every label gets
     * every indexed key, because a key may be set on any vertex later (Q5) and
     * {@code g.V().has(key, value)} must still find it by an index; indexes over (label, key)
     * pairs that hold nothing cost nothing to maintain.
     */
    @Override
    public void load(Dataset dataset, LoadProgress progress) {
        if (loaded != null) {
            throw new IllegalStateException("already loaded: dataset=" + dataset.name());
        }
        DatasetInfo info = dataset.info();
        Neo4jLoader loader = new Neo4jLoader(db, info, batchSize, progress);
        dataset.generate(loader);
        loader.finish();
        List<String> indexes = new ArrayList<>();
        Set<String> vertexKeys = new LinkedHashSet<>(info.indexedVertexKeys());
        vertexKeys.add(info.lookupKey());
        for (String label : info.vertexLabels()) {
            for (String key : vertexKeys) {
                indexes.add("CREATE RANGE INDEX IF NOT EXISTS FOR (v:" + CypherQueries.quote(label) + ") ON (v."
                        + CypherQueries.quote(key) + ")");
            }
        }
        for (String type : info.edgeLabels()) {
            for (String key : info.indexedEdgeKeys()) {
                indexes.add("CREATE RANGE INDEX IF NOT EXISTS FOR ()-[e:" + CypherQueries.quote(type) + "]-() ON (e."
                        + CypherQueries.quote(key) + ")");
            }
        }
        try (Transaction tx = db.beginTx()) {
            for (String text : indexes) {
                tx.execute(text).close();
            }
            tx.commit();
        }
        try (Transaction tx = db.beginTx()) {
            tx.schema().awaitIndexesOnline(1, TimeUnit.HOURS);
            tx.commit();
        }
        Loaded state = new Loaded(new CypherQueries(info), loader.nodeIds(), loader.relIds());
        if (prepare) {
            prepare(state, info);
        }
        loaded = state;
    }

    /**
     * Plans every query text the run can use (each LBV query for each label or key of the dataset,
     * each latency query) by running it once on ids that name nothing, in a transaction rolled back:
     * as a client prepares its statements. Cypher plans a text the first time it sees it, which
     * costs from tens of milliseconds to seconds, and would otherwise land in the measured run.
     */
    private void prepare(Loaded state, DatasetInfo info) {
        List<String> edgeLabels = info.edgeLabels();
        for (LbvQuery query : LbvQuery.values()) {
            List<QueryParams> variants = new ArrayList<>();
            switch (query) {
                case Q2 -> info.vertexLabels().forEach(l -> variants.add(dry(l, null, null, List.of())));
                case Q7 -> info.vertexLabels().forEach(l -> edgeLabels.forEach(e -> variants.add(dry(l, null, e, List.of(-1L)))));
                case Q3, Q4, Q13, Q24 -> edgeLabels.forEach(l -> variants.add(dry(l, null, null, List.of())));
                case Q11 -> info.vertexKeys().forEach(k -> variants.add(dry(null, k, null, List.of())));
                case Q12 -> info.edgeKeys().forEach(k -> variants.add(dry(null, k, null, List.of())));
                default -> variants.add(dry(null, "lbv_none", null, List.of()));
            }
            for (QueryParams params : variants) {
                Map<String, Object> p = new HashMap<>();
                rolledBack(statement(state, query, params, p), p);
            }
        }
        for (LatencyQuery query : LatencyQuery.values()) {
            rolledBack(state.queries().latency(query), Map.of("v", -1L));
        }
    }

    private static QueryParams dry(String label, String key, String edgeLabel, List<Long> targets) {
        return new QueryParams(-1, -1, -1, label, key, -1L, Map.of(), targets.size(), -1L, targets, edgeLabel);
    }

    private void rolledBack(String text, Map<String, Object> params) {
        try (Transaction tx = db.beginTx()) {
            try (Result result = tx.execute(text, params)) {
                while (result.hasNext()) {
                    result.next();
                }
            }
            tx.rollback();
        }
    }

    @Override
    public long execute(LbvQuery query, QueryParams params) {
        return execute(query, params, this::run);
    }

    /** Runs {@code query}'s text and parameters through {@code runner}: the embedded API's or a driver's. */
    long execute(LbvQuery query, QueryParams params, CypherRunner runner) {
        Loaded state = loaded();
        Map<String, Object> p = new HashMap<>();
        return runner.run(statement(state, query, params, p), p);
    }

    /** The text of {@code query} for {@code params}; fills {@code p} with its parameters. */
    private static String statement(Loaded state, LbvQuery query, QueryParams params, Map<String, Object> p) {
        String name = null;
        switch (query) {
            case Q2 -> {
                name = params.label();
                p.put("props", params.properties());
            }
            case Q3, Q4 -> {
                name = params.label();
                node(state, p, "n", params.vertex());
                node(state, p, "m", params.otherVertex());
                if (query == LbvQuery.Q4) {
                    p.put("props", params.properties());
                }
            }
            case Q7 -> {
                name = params.label() + '\u0000' + params.edgeLabel();
                p.put("props", params.properties());
                p.put("targets", q7Targets(state, params));
            }
            case Q5, Q16, Q20 -> {
                node(state, p, "n", params.vertex());
                p.put("key", params.key());
                p.put("set", single(params.key(), query == LbvQuery.Q20 ? null : params.value()));
            }
            case Q6, Q17, Q21 -> {
                rel(state, p, params.edge());
                p.put("key", params.key());
                p.put("set", single(params.key(), query == LbvQuery.Q21 ? null : params.value()));
            }
            case Q11, Q12 -> {
                name = params.key();
                p.put("value", params.value());
            }
            case Q13 -> name = params.label();
            case Q14, Q18, Q22, Q23, Q25, Q26, Q27 -> node(state, p, "n", params.vertex());
            case Q24 -> {
                name = params.label();
                node(state, p, "n", params.vertex());
            }
            case Q15, Q19 -> rel(state, p, params.edge());
        }
        return state.queries().lbv(query, name);
    }

    @Override
    public long latency(LatencyQuery query, QueryParams params) {
        return latency(query, params, this::run);
    }

    /** Runs {@code query}'s text and parameters through {@code runner}. */
    long latency(LatencyQuery query, QueryParams params, CypherRunner runner) {
        Loaded state = loaded();
        Map<String, Object> p = new HashMap<>();
        p.put("v", params.lookupValue());
        return runner.run(state.queries().latency(query), p);
    }

    /** The embedded {@link CypherRunner}: one transaction, runs {@code text}, counts its rows (or reads its count), commits. */
    private long run(String text, Map<String, Object> params) {
        long count = 0;
        try (Transaction tx = db.beginTx()) {
            try (Result result = tx.execute(text, params)) {
                if (CypherRunner.returnsCount(text)) {
                    count = ((Number) result.next().get("n")).longValue();
                } else {
                    while (result.hasNext()) {
                        result.next();
                        count++;
                    }
                }
            }
            tx.commit();
        }
        return count;
    }

    /**
     * Neo4j's transient errors: a detected deadlock, a lock wait past {@code lockTimeout}, and the
     * other conditions Neo4j classifies {@code Neo.TransientError.*}, whether thrown directly or
     * wrapped by Cypher in a {@link QueryExecutionException} carrying the status code.
     */
    @Override
    public boolean isRetryable(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof TransientFailureException) {
                return true;
            }
            // Read committed: an element matched earlier in the transaction was deleted by a concurrent
            // commit before this one wrote to it ("Unable to load NODE ..."); a client re-runs it.
            if (t.getClass().getName().equals("org.neo4j.internal.kernel.api.exceptions.EntityNotFoundException")) {
                return true;
            }
            if (t instanceof Status.HasStatus hasStatus && hasStatus.status() != null
                    && hasStatus.status().code().classification() == Status.Classification.TransientError) {
                return true;
            }
            if (t instanceof QueryExecutionException qe && qe.getStatusCode() != null
                    && qe.getStatusCode().startsWith("Neo.TransientError.")) {
                return true;
            }
        }
        return false;
    }

    /** The embedded database (for its Bolt connector's port). */
    GraphDatabaseService database() {
        return db;
    }

    @Override
    public void close() {
        try {
            dbms.shutdown();
        } finally {
            deleteTree(home);
        }
    }

    private Loaded loaded() {
        Loaded state = loaded;
        if (state == null) {
            throw new IllegalStateException("neo4j: execute before load");
        }
        return state;
    }

    /** Parameters {@code $<prefix>} (internal id, -1 if out of range) and {@code $<prefix>d} (dataset id). */
    private static void node(Loaded state, Map<String, Object> p, String prefix, long datasetId) {
        p.put(prefix, internal(state.nodeIds(), datasetId));
        p.put(prefix + "d", datasetId);
    }

    private static void rel(Loaded state, Map<String, Object> p, long datasetId) {
        p.put("r", internal(state.relIds(), datasetId));
        p.put("rd", datasetId);
    }

    private static long internal(long[] ids, long datasetId) {
        return datasetId >= 0 && datasetId < ids.length ? ids[(int) datasetId] : -1L;
    }

    /** Q7's edges: one to each of {@link QueryParams#targets} (dataset ids), labelled {@link QueryParams#edgeLabel}. */
    private static List<Map<String, Object>> q7Targets(Loaded state, QueryParams params) {
        List<Map<String, Object>> targets = new ArrayList<>(params.targets().size());
        for (long target : params.targets()) {
            targets.add(Map.of("m", internal(state.nodeIds(), target), "md", target));
        }
        return targets;
    }

    private static Map<String, Object> single(String key, Object value) {
        Map<String, Object> map = new HashMap<>(2);
        map.put(key, value);
        return map;
    }

    private static int positive(String key, String value) {
        try {
            int n = Integer.parseInt(value.trim());
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("not a positive integer: " + key + "=" + value);
    }

    /** {@code 512m}, {@code 2g}, {@code 65536k} or a byte count. */
    static long bytes(String key, String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        long unit = 1;
        if (v.endsWith("k") || v.endsWith("m") || v.endsWith("g")) {
            unit = switch (v.charAt(v.length() - 1)) {
                case 'k' -> 1L << 10;
                case 'm' -> 1L << 20;
                default -> 1L << 30;
            };
            v = v.substring(0, v.length() - 1);
        }
        try {
            long n = Long.parseLong(v);
            if (n > 0) {
                return n * unit;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("not a size like 512m: " + key + "=" + value);
    }

    private static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the database directory " + root, e);
        }
    }
}
