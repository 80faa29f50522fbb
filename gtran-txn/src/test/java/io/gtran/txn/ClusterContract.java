package io.gtran.txn;

import org.junit.jupiter.api.AfterEach;

/**
 * What the cluster contracts share (tests written once and run over each transport): three
 * members started by {@link #start} over {@link #transport}, closed after each test, and names
 * interned on the node whose engine uses them (the ids agree across nodes: node 0 gives them).
 */
abstract class ClusterContract {
    protected ClusterNodes c;

    protected abstract ClusterNodes.Transport transport();

    @AfterEach
    void closeCluster() {
        if (c != null) {
            c.close();
        }
    }

    protected void start() {
        c = new ClusterNodes(transport(), 3);
    }

    protected int label(int node, String name) {
        return c.engine(node).store().labels().intern(name);
    }

    protected int key(int node, String name) {
        return c.engine(node).store().propertyKeys().intern(name);
    }
}
