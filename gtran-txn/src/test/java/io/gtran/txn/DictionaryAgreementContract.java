package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.check.fabric.FaultPlan;
import io.gtran.storage.Dictionary;
import io.gtran.txn.common.Isolation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Labels and property keys have the same id on every member (docs/cluster-transactions.md, "Names:
 * labels and property keys"): node 0, the member with the lowest id, gives the ids; the others ask
 * it for names new to them. Written once and run over each transport.
 */
@Timeout(60)
abstract class DictionaryAgreementContract {
    private static final long SEED = 20240611L;
    private static final int REMOTE_TIMEOUT_MS = 1_500;
    private ClusterNodes c;
    private FaultPlan plan;

    protected abstract ClusterNodes.Transport transport();

    @AfterEach
    void close() {
        if (plan != null) {
            plan.heal();
        }
        if (c != null) {
            c.close();
        }
        if (plan != null) {
            plan.close();
        }
    }

    private Dictionary labels(int node) {
        return c.engine(node).store().labels();
    }

    private Dictionary keys(int node) {
        return c.engine(node).store().propertyKeys();
    }

    @Test
    void namesInternedOnEachNodeInTurnHaveOneIdEverywhere() {
        c = new ClusterNodes(transport(), 3);
        labels(2).intern("person");
        keys(2).intern("age");
        labels(1).intern("place");
        keys(1).intern("name");
        labels(0).intern("thing");
        keys(0).intern("size");
        for (String name : List.of("person", "place", "thing")) {
            int at0 = labels(0).intern(name);
            assertEquals(at0, labels(1).intern(name), name + " on node 1");
            assertEquals(at0, labels(2).intern(name), name + " on node 2");
        }
        for (String name : List.of("age", "name", "size")) {
            int at0 = keys(0).intern(name);
            assertEquals(at0, keys(1).intern(name), name + " on node 1");
            assertEquals(at0, keys(2).intern(name), name + " on node 2");
        }
        // Node 2 interned first, so it did not take the first ids by itself.
        assertEquals(List.of("person", "place", "thing"), labels(0).names(), "the authority's labels, in id order");
        assertEquals(0, labels(2).find("person"));
        assertEquals(1, labels(1).find("place"));
    }

    @Test
    void findOnANodeThatNeverSawANameFindsItsId() {
        c = new ClusterNodes(transport(), 3);
        labels(0).intern("first"); // so that the id looked for is not 0 by chance
        int label = labels(1).intern("knows");
        int key = keys(1).intern("since");
        assertEquals(label, labels(2).find("knows"));
        assertEquals(key, keys(2).find("since"));
        assertEquals(label, labels(0).find("knows"));
        assertEquals(List.of("since"), keys(2).names(), "what find learnt is kept");
    }

    @Test
    void aNameNeverInternedIsAbsentEverywhereAndFindDoesNotCreateIt() {
        c = new ClusterNodes(transport(), 3);
        labels(0).intern("known");
        for (int node = 0; node < 3; node++) {
            assertEquals(Dictionary.ABSENT, labels(node).find("ghost"), "node " + node);
            assertEquals(Dictionary.ABSENT, keys(node).find("ghost"), "node " + node);
        }
        assertEquals(Dictionary.ABSENT, labels(1).find("ghost"), "asked again: still absent");
        assertEquals(List.of("known"), labels(0).names(), "the authority interned nothing");
        assertEquals(List.of(), keys(0).names());
        assertEquals(0, labels(2).size());
    }

    @Test
    void aNameCarriedByARemoteOperationGetsTheClusterId() {
        c = new ClusterNodes(transport(), 3);
        keys(0).intern("padding");
        Transaction t = c.begin(2, Isolation.SERIALIZABLE);
        long v = t.addVertex(1, labels(2).intern("item"));
        t.setVertexProperty(v, keys(2).intern("weight"), 7L);
        t.commit();
        // Node 1 interned both names when it ran node 2's operations on its vertex.
        assertEquals(List.of("item"), labels(1).names());
        assertEquals(List.of("weight"), keys(1).names());
        assertEquals(labels(2).find("item"), labels(1).find("item"));
        assertEquals(keys(2).find("weight"), keys(1).find("weight"));
        assertEquals(keys(0).find("weight"), keys(1).find("weight"));
    }

    @Test
    void concurrentInterningOfTheSameNamesGivesOneIdPerName() throws Exception {
        c = new ClusterNodes(transport(), 3);
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            names.add("name" + i);
        }
        int threadsPerNode = 4;
        ExecutorService pool = Executors.newFixedThreadPool(3 * threadsPerNode);
        try {
            List<Future<?>> done = new ArrayList<>();
            Random random = new Random(SEED);
            for (int node = 0; node < 3; node++) {
                for (int t = 0; t < threadsPerNode; t++) {
                    List<String> order = new ArrayList<>(names);
                    Collections.shuffle(order, new Random(random.nextLong()));
                    int at = node;
                    done.add(pool.submit(() -> {
                        for (String name : order) {
                            labels(at).intern(name);
                            keys(at).intern(name);
                        }
                    }));
                }
            }
            for (Future<?> f : done) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        for (Function<Integer, Dictionary> dictionary : List.<Function<Integer, Dictionary>>of(this::labels, this::keys)) {
            Set<Integer> ids = new HashSet<>();
            for (String name : names) {
                int id = dictionary.apply(0).find(name);
                assertTrue(ids.add(id), name + " shares id " + id);
                assertEquals(id, dictionary.apply(1).find(name), name + " on node 1 (seed " + SEED + ")");
                assertEquals(id, dictionary.apply(2).find(name), name + " on node 2 (seed " + SEED + ")");
            }
            assertEquals(50, dictionary.apply(0).size());
            assertEquals(50, dictionary.apply(1).size());
        }
    }

    @Test
    void aClosedAuthorityFailsNewNamesClearlyAndKnownNamesKeepWorking() {
        c = new ClusterNodes(transport(), 3, TxnConfig.REMOTE_TIMEOUT_MS, REMOTE_TIMEOUT_MS);
        int label = labels(1).intern("item");
        int key = keys(1).intern("n");
        labels(2).intern("item");
        keys(2).intern("n");
        c.nodes[0].close();
        assertUnreachable(1, "newcomer");
        // Known names need no authority: nodes 1 and 2 still run transactions with them.
        assertEquals(label, labels(1).intern("item"));
        Transaction t = c.begin(1, Isolation.SERIALIZABLE);
        long v = t.addVertex(2, label);
        t.setVertexProperty(v, key, 1L);
        t.commit();
        Transaction r = c.begin(2, Isolation.SERIALIZABLE);
        assertEquals(1L, r.vertexProperty(v, keys(2).find("n")));
        r.commit();
    }

    @Test
    void anIsolatedAuthorityFailsNewNamesWithinTheTimeout() {
        plan = new FaultPlan(SEED);
        c = new ClusterNodes(ClusterNodes.faulty(transport(), plan), 3, TxnConfig.REMOTE_TIMEOUT_MS, REMOTE_TIMEOUT_MS);
        int label = labels(2).intern("before");
        plan.isolate(0);
        assertUnreachable(2, "during");
        assertEquals(label, labels(2).intern("before"), "a known name keeps working");
        assertFalse(c.nodes[2].isClosed());
    }

    /** Interning a new label on {@code node} fails, in time, with a message naming the name, the dictionary and node 0. */
    private void assertUnreachable(int node, String name) {
        long start = System.nanoTime();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> labels(node).intern(name));
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        String message = e.getMessage();
        assertTrue(message.contains("label '" + name + "'") && message.contains("node 0")
                && message.contains("authority"), message);
        assertTrue(millis < REMOTE_TIMEOUT_MS + 2_000, "failed after " + millis + " ms: " + message);
        assertFalse(labels(node).names().contains(name), "a failed intern records nothing");
    }
}
