package io.gtran.storage;

import org.junit.jupiter.api.AfterEach;

/** For tests of a restore by hand: a fresh store with one label, its restorer, and ids of its node. */
abstract class RestorerTestCase {
    final GraphStore store;
    final int label;
    final StoreRestorer restorer;

    RestorerTestCase(StoreConfig config) {
        store = GraphStore.open(config);
        label = store.labels().intern("thing");
        restorer = store.restorer();
    }

    @AfterEach
    void close() {
        store.close();
    }

    long vertex(int generation, int slot) {
        return ElementIds.vertexId(store.nodeId(), generation, slot);
    }

    long edge(int generation, int slot) {
        return ElementIds.edgeId(store.nodeId(), generation, slot);
    }
}
