package io.gtran.lbv;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A reference {@link LbvSystem} for tests: hash maps behind one read-write lock (so trivially
 * serializable), every LBV and latency query implemented directly. Options:
 * {@code conflictRate=0.1} throws a retryable {@link Conflict} before that share of attempts;
 * {@code failQuery=Q18} makes that query always fail non-retryably; {@code failLoad=true} makes
 * load fail; {@code seed=N} seeds the conflicts; anything else is rejected.
 */
public final class MapLbvSystem implements LbvSystem {
    /** The retryable failure. */
    static final class Conflict extends RuntimeException {
        Conflict(String message) {
            super(message);
        }
    }

    private static final class V {
        final String label;
        final Map<String, Object> properties;
        final Set<Long> out = new LinkedHashSet<>();
        final Set<Long> in = new LinkedHashSet<>();

        V(String label, Map<String, Object> properties) {
            this.label = label;
            this.properties = new LinkedHashMap<>(properties);
        }
    }

    private record E(String label, long out, long in, Map<String, Object> properties) {
    }

    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final Map<Long, V> vertices = new HashMap<>();
    private final Map<Long, E> edges = new HashMap<>();
    private final Map<Object, Long> byLookup = new HashMap<>();
    private final AtomicLong nextId = new AtomicLong(1L << 40);
    private final double conflictRate;
    private final String failQuery;
    private final boolean failLoad;
    private final SplittableRandom random;
    private String lookupKey = "ori_id";
    private volatile boolean closed;

    public MapLbvSystem(Map<String, String> options) {
        Set<String> known = Set.of("conflictRate", "failQuery", "failLoad", "seed");
        for (String key : options.keySet()) {
            if (!known.contains(key)) {
                throw new IllegalArgumentException("option=" + key + " is unknown; known: " + known);
            }
        }
        this.conflictRate = Double.parseDouble(options.getOrDefault("conflictRate", "0"));
        this.failQuery = options.get("failQuery");
        this.failLoad = Boolean.parseBoolean(options.getOrDefault("failLoad", "false"));
        this.random = new SplittableRandom(Long.parseLong(options.getOrDefault("seed", "7")));
    }

    @Override
    public String name() {
        return "map";
    }

    @Override
    public String isolation() {
        return "serializable (one lock)";
    }

    @Override
    public void load(Dataset dataset, LoadProgress progress) {
        if (failLoad) {
            throw new IllegalStateException("failLoad=true");
        }
        lookupKey = dataset.info().lookupKey();
        long[] counts = new long[2];
        lock.writeLock().lock();
        try {
            dataset.generate(new GraphSink() {
                @Override
                public void vertex(long id, String label, Map<String, Object> properties) {
                    vertices.put(id, new V(label, properties));
                    Object lookup = properties.get(lookupKey);
                    if (lookup != null) {
                        byLookup.put(lookup, id);
                    }
                    progress.loaded(++counts[0], 0);
                }

                @Override
                public void edge(long id, long outId, long inId, String label, Map<String, Object> properties) {
                    addEdge(id, outId, inId, label, properties);
                    progress.loaded(counts[0], ++counts[1]);
                }
            });
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public long execute(LbvQuery query, QueryParams p) {
        if (closed) {
            throw new IllegalStateException("closed");
        }
        if (query.name().equals(failQuery)) {
            throw new UnsupportedOperationException("failQuery=" + query);
        }
        if (conflictRate > 0 && draw() < conflictRate) {
            throw new Conflict("injected conflict on " + query);
        }
        boolean write = query.category().writes();
        (write ? lock.writeLock() : lock.readLock()).lock();
        try {
            return write ? write(query, p) : read(query, p);
        } finally {
            (write ? lock.writeLock() : lock.readLock()).unlock();
        }
    }

    private double draw() {
        synchronized (random) {
            return random.nextDouble();
        }
    }

    private long write(LbvQuery query, QueryParams p) {
        switch (query) {
            case Q2 -> {
                vertices.put(nextId.getAndIncrement(), new V(p.label(), p.properties()));
                return 1;
            }
            case Q3, Q4 -> {
                if (!vertices.containsKey(p.vertex()) || !vertices.containsKey(p.otherVertex())) {
                    return 0;
                }
                addEdge(nextId.getAndIncrement(), p.vertex(), p.otherVertex(), p.label(), p.properties());
                return 1;
            }
            case Q7 -> {
                long v = nextId.getAndIncrement();
                vertices.put(v, new V(p.label(), p.properties()));
                long added = 1;
                for (long target : p.targets()) {
                    if (vertices.containsKey(target)) {
                        addEdge(nextId.getAndIncrement(), v, target, p.edgeLabel(), Map.of());
                        added++;
                    }
                }
                return added;
            }
            case Q5, Q16 -> {
                V v = vertices.get(p.vertex());
                return v == null ? 0 : put(v.properties, p.key(), p.value());
            }
            case Q6, Q17 -> {
                E e = edges.get(p.edge());
                return e == null ? 0 : put(e.properties(), p.key(), p.value());
            }
            case Q18 -> {
                V v = vertices.get(p.vertex());
                if (v == null) {
                    return 0;
                }
                Set<Long> incident = new HashSet<>(v.out);
                incident.addAll(v.in);
                incident.forEach(this::removeEdge);
                vertices.remove(p.vertex());
                byLookup.values().remove(p.vertex());
                return 1;
            }
            case Q19 -> {
                return removeEdge(p.edge()) ? 1 : 0;
            }
            case Q20 -> {
                V v = vertices.get(p.vertex());
                return v != null && v.properties.remove(p.key()) != null ? 1 : 0;
            }
            case Q21 -> {
                E e = edges.get(p.edge());
                return e != null && e.properties().remove(p.key()) != null ? 1 : 0;
            }
            default -> throw new IllegalArgumentException("query=" + query + " is not a write");
        }
    }

    private long read(LbvQuery query, QueryParams p) {
        switch (query) {
            case Q11 -> {
                return vertices.values().stream().filter(v -> Objects.equals(v.properties.get(p.key()), p.value())).count();
            }
            case Q12 -> {
                return edges.values().stream().filter(e -> Objects.equals(e.properties().get(p.key()), p.value())).count();
            }
            case Q13 -> {
                return edges.values().stream().filter(e -> e.label().equals(p.label())).count();
            }
            case Q14 -> {
                V v = vertices.get(p.vertex());
                return v == null ? 0 : 1;
            }
            case Q15 -> {
                return edges.containsKey(p.edge()) ? 1 : 0;
            }
            default -> {
                V v = vertices.get(p.vertex());
                return v == null ? 0 : traverse(query, v, p.label());
            }
        }
    }

    private long traverse(LbvQuery query, V v, String label) {
        return switch (query) {
            case Q22 -> v.in.size();
            case Q23 -> v.out.size();
            case Q24 -> v.in.stream().filter(e -> edges.get(e).label().equals(label)).count()
                    + v.out.stream().filter(e -> edges.get(e).label().equals(label)).count();
            case Q25 -> v.in.stream().map(e -> edges.get(e).label()).distinct().count();
            case Q26 -> v.out.stream().map(e -> edges.get(e).label()).distinct().count();
            case Q27 -> java.util.stream.Stream.concat(v.in.stream(), v.out.stream())
                    .map(e -> edges.get(e).label()).distinct().count();
            default -> throw new IllegalArgumentException("query=" + query + " is not a traversal");
        };
    }

    @Override
    public long latency(LatencyQuery query, QueryParams p) {
        lock.readLock().lock();
        try {
            Long id = byLookup.get(p.lookupValue());
            V v = id == null ? null : vertices.get(id);
            if (v == null) {
                return 0;
            }
            return switch (query) {
                case IS1 -> is1(v);
                case IS2 -> is2(v);
                case IS3 -> v.out.stream().filter(e -> edges.get(e).label().equals("knows")).count()
                        + v.in.stream().filter(e -> edges.get(e).label().equals("knows")).count();
                case IS4 -> v.label.equals("comment") ? count(v, "content", "creationDate")
                        : v.label.equals("post") ? count(v, "imageFile", "creationDate") : 0;
                case KHOP1 -> khop(id, 1);
                case KHOP2 -> khop(id, 2);
                case KHOP3 -> khop(id, 3);
                case KHOP4 -> khop(id, 4);
            };
        } finally {
            lock.readLock().unlock();
        }
    }

    private long is1(V v) {
        long n = count(v, "firstName", "lastName", "birthday", "locationIP", "browserUsed");
        for (long e : v.out) {
            if (edges.get(e).label().equals("isLocatedIn") && vertices.get(edges.get(e).in()).properties.containsKey("name")) {
                n++;
            }
        }
        return n;
    }

    private long is2(V person) {
        List<V> messages = new ArrayList<>();
        for (long e : person.in) {
            if (edges.get(e).label().equals("hasCreator")) {
                messages.add(vertices.get(edges.get(e).out()));
            }
        }
        messages.sort(Comparator.comparingLong((V m) -> (Long) m.properties.getOrDefault("creationDate", 0L)).reversed());
        long pairs = 0;
        for (V m : messages.subList(0, Math.min(10, messages.size()))) {
            V post = m.label.equals("comment") ? out(m, "replyOf") : m;
            V author = post == null ? null : out(post, "hasCreator");
            if (author != null && author.properties.containsKey("firstName")) {
                pairs++;
            }
        }
        return pairs;
    }

    private V out(V v, String label) {
        for (long e : v.out) {
            if (edges.get(e).label().equals(label)) {
                return vertices.get(edges.get(e).in());
            }
        }
        return null;
    }

    private static long count(V v, String... keys) {
        long n = 0;
        for (String k : keys) {
            if (v.properties.containsKey(k)) {
                n++;
            }
        }
        return n;
    }

    /** Paths of length {@code k} along both directions (not deduplicated). */
    private long khop(long start, int k) {
        Map<Long, Long> frontier = Map.of(start, 1L);
        for (int hop = 0; hop < k; hop++) {
            Map<Long, Long> next = new HashMap<>();
            frontier.forEach((id, paths) -> {
                V v = vertices.get(id);
                for (long e : v.out) {
                    next.merge(edges.get(e).in(), paths, Long::sum);
                }
                for (long e : v.in) {
                    next.merge(edges.get(e).out(), paths, Long::sum);
                }
            });
            frontier = next;
        }
        return frontier.values().stream().mapToLong(Long::longValue).sum();
    }

    @Override
    public boolean isRetryable(Throwable failure) {
        return failure instanceof Conflict;
    }

    @Override
    public void close() {
        closed = true;
    }

    /** Vertex count now, for tests. */
    int vertexCount() {
        lock.readLock().lock();
        try {
            return vertices.size();
        } finally {
            lock.readLock().unlock();
        }
    }

    private void addEdge(long id, long out, long in, String label, Map<String, Object> properties) {
        edges.put(id, new E(label, out, in, new LinkedHashMap<>(properties)));
        vertices.get(out).out.add(id);
        vertices.get(in).in.add(id);
    }

    private boolean removeEdge(long id) {
        E e = edges.remove(id);
        if (e == null) {
            return false;
        }
        vertices.get(e.out()).out.remove(id);
        vertices.get(e.in()).in.remove(id);
        return true;
    }

    private static long put(Map<String, Object> properties, String key, Object value) {
        properties.put(key, value);
        return 1;
    }
}
