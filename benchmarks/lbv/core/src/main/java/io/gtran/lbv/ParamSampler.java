package io.gtran.lbv;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Draws the parameters of each query from a {@link ValuePool}: ids, labels, keys and values that
 * exist in the dataset as generated. One per thread (not thread-safe); the same pool, seed and skew
 * give the same sequence.
 *
 * <p><b>Skew.</b> Every vertex and edge a throughput query (Q2–Q27) names, including the vertex or
 * edge whose label a new element copies, but not the element Q18 or Q19 removes, is drawn by
 * {@code vertex()} and {@code edge()}: with {@code skew} (theta) 0, the default, uniformly, exactly
 * the sequence this class drew before skew existed; with theta {@code > 0} from a Zipf
 * distribution, the {@code r}-th most popular of {@code n} with probability
 * {@code r^-theta / zeta(n, theta)} ({@link Zipf}). Theta 0.99 is YCSB's default: over 272K
 * vertices it gives the top vertex 7% of the draws and the top hundred 38% (theta 0.8: 1.8% and
 * 14%; theta 1.2: 19% and 70%). Ranks are mapped to ids by a fixed bijection ({@link Scatter}), so
 * the hot elements are scattered ids, the same ones in every thread and every system, not the
 * lowest ids. Where a query redraws (an element whose label carries no key to set), the redraw is
 * skewed too.
 *
 * <p>Q18 and Q19 remove a uniform vertex or edge whatever the skew: removing hot elements removes
 * the skew with them (tried at theta 0.99 on 100K edges: the removals of the warm-up left about
 * half of all skewed draws naming a removed element, and the rest drew next to no conflicts). The
 * latency queries ({@link #sample(LatencyQuery)}) are uniform too: they measure single-query
 * latency, not contention. "Uniform" below means "skewed by theta" for the vertices and edges of
 * Q2–Q17 and Q20–Q27.
 *
 * <p>What each query gets:
 * <ul>
 *   <li>Q14, Q18, Q22, Q23, Q25–Q27: a uniform vertex; Q15, Q19: a uniform edge.
 *   <li>Q24, Q13: a uniform edge label.
 *   <li>Q11 / Q12: a uniform indexed vertex / edge key (any key if none is indexed) and a value of
 *       it drawn from the pool, so common values are drawn as often as they occur.
 *   <li>Q2 / Q7: the label of a uniform vertex and fresh values for every key that label carries
 *       except the lookup key (new elements get no {@code ori_id}); Q7 adds 1–5 edges, labelled as
 *       a uniform edge is, to uniform vertices.
 *   <li>Q3 / Q4: two uniform vertices and the label of a uniform edge; Q4's edge is drawn among
 *       edges whose label carries properties, and gets fresh values for them.
 *   <li>Q5 / Q6: a new key {@code lbv_new_0..15} and a fresh long value.
 *   <li>Q16 / Q17: a key the element's label carries (never the lookup key, so lookups keep
 *       working) and a fresh value of the same type; Q20 / Q21 the same key, to remove.
 *       Elements whose label carries no such key are redrawn.
 *   <li>Latency: IS1–IS3 a person, IS4 a post or comment (any vertex on datasets without them),
 *       k-hop a uniform vertex; {@code lookupValue} is its lookup-key value and {@code vertex} its id.
 * </ul>
 */
public final class ParamSampler {
    /** How many distinct new keys Q5/Q6 use: few, so systems with schemas do not grow without bound. */
    public static final int NEW_KEYS = 16;
    public static final String NEW_KEY_PREFIX = "lbv_new_";
    public static final int MAX_FANOUT = 5;
    /** Skews at or above this are refused: at theta 5 the top rank already gets 96% of the draws. */
    public static final double MAX_SKEW = 5;
    private static final int REDRAWS = 64;
    private static final List<String> PERSON = List.of("person");
    private static final List<String> MESSAGES = List.of("post", "comment");

    private final ValuePool pool;
    private final DatasetInfo info;
    private final SplitMix64 random;
    private final long vertices;
    private final long edges;
    private final Zipf vertexRanks;
    private final Zipf edgeRanks;
    private final Scatter vertexIds;
    private final Scatter edgeIds;

    /** Uniform draws: {@code ParamSampler(pool, seed, 0)}. */
    public ParamSampler(ValuePool pool, long seed) {
        this(pool, seed, 0);
    }

    /**
     * @param skew the Zipf theta of the vertices and edges of Q2–Q27, in {@code [0, MAX_SKEW)}; 0 is
     *     uniform
     */
    public ParamSampler(ValuePool pool, long seed, double skew) {
        if (!(skew >= 0 && skew < MAX_SKEW)) {
            throw new IllegalArgumentException("skew=" + skew + " is outside [0, " + MAX_SKEW + ")");
        }
        this.pool = pool;
        this.info = pool.info();
        this.random = new SplitMix64(SplitMix64.hash(seed, 0x5A3B));
        this.vertices = info.vertices();
        this.edges = info.edges();
        if (vertices == 0 || edges == 0) {
            throw new IllegalArgumentException("dataset=" + info.name() + " needs vertices and edges: vertices=" + vertices
                    + " edges=" + edges);
        }
        this.vertexRanks = new Zipf(vertices, skew);
        this.edgeRanks = new Zipf(edges, skew);
        this.vertexIds = new Scatter(vertices);
        this.edgeIds = new Scatter(edges);
    }

    /** The Zipf theta of the vertices and edges of Q2–Q27 (0: uniform). */
    public double skew() {
        return vertexRanks.theta();
    }

    public QueryParams sample(LbvQuery query) {
        return switch (query) {
            case Q2 -> newVertex(0, null);
            case Q3 -> newEdge(false);
            case Q4 -> newEdge(true);
            case Q5 -> params(vertex(), -1, null, newKey(), random.nextLong(1_000_000_000L));
            case Q6 -> params(-1, edge(), null, newKey(), random.nextLong(1_000_000_000L));
            case Q7 -> newVertex(1 + random.nextInt(MAX_FANOUT), random.pick(info.edgeLabels()));
            case Q11 -> has(info.indexedVertexKeys(), info.vertexKeys(), true);
            case Q12 -> has(info.indexedEdgeKeys(), info.edgeKeys(), false);
            case Q13 -> params(-1, -1, random.pick(info.edgeLabels()), null, null);
            case Q24 -> params(vertex(), -1, random.pick(info.edgeLabels()), null, null);
            case Q14, Q22, Q23, Q25, Q26, Q27 -> params(vertex(), -1, null, null, null);
            case Q18 -> params(random.nextLong(vertices), -1, null, null, null); // uniform whatever the skew: see above
            case Q15 -> params(-1, edge(), null, null, null);
            case Q19 -> params(-1, random.nextLong(edges), null, null, null); // uniform whatever the skew
            case Q16 -> vertexProperty(true);
            case Q17 -> edgeProperty(true);
            case Q20 -> vertexProperty(false);
            case Q21 -> edgeProperty(false);
        };
    }

    public QueryParams sample(LatencyQuery query) {
        long v = switch (query) {
            case IS1, IS2, IS3 -> pool.vertexOf(random, PERSON);
            case IS4 -> pool.vertexOf(random, MESSAGES);
            case KHOP1, KHOP2, KHOP3, KHOP4 -> random.nextLong(vertices); // uniform whatever the skew: see above
        };
        return new QueryParams(v, -1, -1, null, info.lookupKey(), null, null, 0, pool.lookupValue(v), null, null);
    }

    /** A vertex of a throughput query: uniform, or Zipf-skewed over scattered ids. */
    private long vertex() {
        return skew() == 0 ? random.nextLong(vertices) : vertexIds.apply(vertexRanks.next(random));
    }

    /** An edge of a throughput query: uniform, or Zipf-skewed over scattered ids. */
    private long edge() {
        return skew() == 0 ? random.nextLong(edges) : edgeIds.apply(edgeRanks.next(random));
    }

    private String newKey() {
        return NEW_KEY_PREFIX + random.nextInt(NEW_KEYS);
    }

    private QueryParams params(long vertex, long edge, String label, String key, Object value) {
        return new QueryParams(vertex, -1, edge, label, key, value, null, 0, null, null, null);
    }

    private QueryParams newVertex(int fanout, String edgeLabel) {
        String label = pool.vertexLabel(vertex());
        Map<String, Object> properties = fresh(pool.vertexSchema(label));
        List<Long> targets = new ArrayList<>(fanout);
        for (int i = 0; i < fanout; i++) {
            targets.add(vertex());
        }
        long other = targets.isEmpty() ? -1 : targets.get(0);
        return new QueryParams(-1, other, -1, label, null, null, properties, fanout, null, targets, edgeLabel);
    }

    private QueryParams newEdge(boolean withProperties) {
        long template = edge();
        for (int i = 0; withProperties && i < REDRAWS && pool.edgeSchema(pool.edgeLabelIndex(template)).isEmpty(); i++) {
            template = edge();
        }
        String label = pool.edgeLabel(template);
        Map<String, Object> properties = withProperties ? fresh(pool.edgeSchema(label)) : null;
        return new QueryParams(vertex(), vertex(), -1, label, null, null, properties, 0, null, null, null);
    }

    private QueryParams has(List<String> indexed, List<String> all, boolean onVertices) {
        List<String> keys = indexed.isEmpty() ? all : indexed;
        for (int i = 0; i < REDRAWS; i++) {
            String key = random.pick(keys);
            Object[] values = onVertices ? pool.vertexValuesArray(key) : pool.edgeValuesArray(key);
            if (values != null && values.length > 0) {
                Object value = random.pick(values);
                return params(-1, -1, null, key, value);
            }
        }
        throw new IllegalStateException("dataset=" + info.name() + " has no values for keys=" + keys);
    }

    private QueryParams vertexProperty(boolean update) {
        for (int i = 0; i < REDRAWS; i++) {
            long v = vertex();
            String key = existingKey(pool.vertexSchema(pool.vertexLabelIndex(v)));
            if (key != null) {
                Object value = update ? fresh(pool.vertexSchema(pool.vertexLabelIndex(v)).get(key)) : null;
                return params(v, -1, null, key, value);
            }
        }
        long v = vertex(); // no vertex carries a key besides the lookup key: set or remove a new one
        return params(v, -1, null, newKey(), update ? random.nextLong(1_000_000_000L) : null);
    }

    private QueryParams edgeProperty(boolean update) {
        for (int i = 0; i < REDRAWS; i++) {
            long e = edge();
            String key = existingKey(pool.edgeSchema(pool.edgeLabelIndex(e)));
            if (key != null) {
                Object value = update ? fresh(pool.edgeSchema(pool.edgeLabelIndex(e)).get(key)) : null;
                return params(-1, e, null, key, value);
            }
        }
        long e = edge();
        return params(-1, e, null, newKey(), update ? random.nextLong(1_000_000_000L) : null);
    }

    /** A uniform key of {@code schema} other than the lookup key, or null. */
    private String existingKey(Map<String, Object> schema) {
        int candidates = schema.size() - (schema.containsKey(info.lookupKey()) ? 1 : 0);
        if (candidates <= 0) {
            return null;
        }
        int n = random.nextInt(candidates);
        for (String key : schema.keySet()) {
            if (!key.equals(info.lookupKey()) && n-- == 0) {
                return key;
            }
        }
        throw new AssertionError("schema=" + schema.keySet());
    }

    /** Fresh values for every key of {@code schema} but the lookup key. */
    private Map<String, Object> fresh(Map<String, Object> schema) {
        Map<String, Object> properties = new LinkedHashMap<>();
        schema.forEach((key, example) -> {
            if (!key.equals(info.lookupKey())) {
                properties.put(key, fresh(example));
            }
        });
        return properties;
    }

    /** A new value of {@code example}'s type and about its magnitude. */
    private Object fresh(Object example) {
        if (example instanceof Long l) {
            long magnitude = Math.max(1000, Math.abs(l == Long.MIN_VALUE ? Long.MAX_VALUE : l));
            return l < 0 ? -random.nextLong(magnitude) : random.nextLong(magnitude);
        }
        if (example instanceof Integer i) {
            int magnitude = Math.max(1000, Math.abs(i == Integer.MIN_VALUE ? Integer.MAX_VALUE : i));
            return i < 0 ? -random.nextInt(magnitude) : random.nextInt(magnitude);
        }
        if (example instanceof Double d) {
            return random.nextDouble() * Math.max(1.0, Math.abs(d) * 2);
        }
        return "lbv-" + Long.toString(random.nextLong() >>> 1, 36);
    }
}
