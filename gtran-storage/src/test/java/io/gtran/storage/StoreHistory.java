package io.gtran.storage;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

/**
 * For the restore tests: a store after a seeded history of adds and removes, so that freed slots
 * were reused (generations above 0) and some slots are free with a dead marker, and every id it
 * removed. Some edges have an endpoint on another node, some are self-loops, and half of all
 * endpoints are drawn from a few hubs, so that some vertices have many rows of edges.
 */
final class StoreHistory implements AutoCloseable {
    static final int OTHER_NODE = 1;
    static final String[] LABELS = {"knows", "likes", "owns", "made"};
    /** Half of all endpoints are drawn from the first this many vertices of {@link #vertices}, which are never removed. */
    static final int HUBS = 4;

    final StoreConfig config;
    final GraphStore store;
    final List<Long> vertices = new ArrayList<>();
    final List<Long> edges = new ArrayList<>();
    /** Every id removed, oldest first; a slot may appear several times. */
    final List<Long> dead = new ArrayList<>();
    private final Random random;
    private final int[] labels = new int[LABELS.length];

    /** Small chunks (64 headers each), so the slots used span several chunks. */
    StoreHistory(long seed) {
        this.config = StoreTestSupport.config(StoreConfig.CHUNK_BYTES, 4096);
        this.store = GraphStore.open(config);
        this.random = new Random(seed);
        for (int i = 0; i < LABELS.length; i++) {
            labels[i] = store.labels().intern(LABELS[i]);
        }
        for (int round = 0; round < 4; round++) {
            addVertices(120);
            addEdges(400);
            removeEdges(edges.size() / 3);
            removeVertices(vertices.size() / 4);
        }
        addVertices(30); // the last slots freed are taken again
    }

    private int label() {
        return labels[random.nextInt(labels.length)];
    }

    private long localVertex() {
        int among = random.nextBoolean() ? Math.min(HUBS, vertices.size()) : vertices.size();
        return vertices.get(random.nextInt(among));
    }

    private void addVertices(int count) {
        for (int i = 0; i < count; i++) {
            vertices.add(store.addVertex(label(), random.nextLong(), random.nextLong()));
        }
    }

    private void addEdges(int count) {
        for (int i = 0; i < count; i++) {
            long out = localVertex();
            long in = random.nextInt(20) == 0 ? out : localVertex();
            if (random.nextInt(10) == 0) {
                long remote = ElementIds.vertexId(OTHER_NODE, random.nextInt(3), 1 + random.nextInt(1000));
                if (random.nextBoolean()) {
                    out = remote;
                } else {
                    in = remote;
                }
            }
            edges.add(store.addEdge(out, in, label(), random.nextLong(), random.nextLong()));
        }
    }

    private void removeEdges(int count) {
        for (int i = 0; i < count; i++) {
            long edge = edges.remove(random.nextInt(edges.size()));
            store.removeEdge(edge);
            dead.add(edge);
        }
    }

    private void removeVertices(int count) {
        for (int i = 0; i < count; i++) {
            long vertex = vertices.remove(HUBS + random.nextInt(vertices.size() - HUBS)); // the hubs stay
            for (long edge : new ArrayList<>(edges)) {
                if (store.edgeOutVertex(edge) == vertex || store.edgeInVertex(edge) == vertex) {
                    edges.remove(edge);
                    store.removeEdge(edge);
                    dead.add(edge);
                }
            }
            store.removeVertex(vertex);
            dead.add(vertex);
        }
    }

    /** A new store of the same configuration, its labels restored with their ids, in shuffled order. */
    GraphStore emptyCopy(Random order) {
        GraphStore copy = GraphStore.open(config);
        List<String> names = new ArrayList<>(store.labels().names());
        Collections.shuffle(names, order);
        for (String name : names) {
            copy.labels().restore(store.labels().find(name), name);
        }
        return copy;
    }

    /** {@link #emptyCopy} with everything restored into it by a {@link StoreRestorer}, declared in shuffled order. */
    GraphStore restore(Random order) {
        GraphStore copy = emptyCopy(order);
        StoreRestorer restorer = copy.restorer();
        declareAll(restorer, order);
        restorer.finish();
        return copy;
    }

    /** Declares every live element and every removed id to {@code restorer}, in shuffled order. */
    void declareAll(StoreRestorer restorer, Random order) {
        List<Consumer<StoreRestorer>> declarations = new ArrayList<>();
        ElementTable v = store.vertices();
        ElementTable e = store.edges();
        for (long id : vertices) {
            declarations.add(r -> r.vertex(id, v.label(id), v.beginTime(id), v.endTime(id)));
        }
        for (long id : edges) {
            declarations.add(r -> r.edge(id, store.edgeOutVertex(id), store.edgeInVertex(id), e.label(id), e.beginTime(id),
                    e.endTime(id)));
        }
        for (long id : dead) {
            declarations.add(r -> r.dead(id));
        }
        Collections.shuffle(declarations, order);
        declarations.forEach(d -> d.accept(restorer));
    }

    @Override
    public void close() {
        store.close();
    }
}
