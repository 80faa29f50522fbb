package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.check.fabric.CountingFabric;
import io.gtran.rdma.Fabric;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.protocol.Family;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The messages a commit costs, for {@link ClusterTransactionsContract}: each node's fabric is
 * wrapped ({@link #wrap}, for {@link ClusterNodes}) in a {@link CountingFabric} over a {@link
 * MessageTally}, and {@link #assertCommit} runs one transaction of node 0 and checks what each
 * node sent ({@link Family#COMMIT}) from its begin until every decision is acknowledged; operations
 * and clock samples are other families.
 */
final class CommitCosts {
    private final MessageTally[] tallies;
    private final CountingFabric[] counting;
    private ClusterNodes c;

    CommitCosts(int nodes) {
        tallies = new MessageTally[nodes];
        counting = new CountingFabric[nodes];
    }

    /** The fabric node {@code fabric.localNode()} is opened over. */
    Fabric wrap(Fabric fabric) {
        int node = fabric.localNode();
        tallies[node] = new MessageTally(fabric);
        counting[node] = new CountingFabric(tallies[node]);
        return counting[node];
    }

    void on(ClusterNodes nodes) {
        this.c = nodes;
    }

    /**
     * Runs {@code body} in an SR transaction of node 0 and commits it; once every node is quiet and
     * every decision acknowledged, the commit messages node {@code i} sent are {@code expected[i]},
     * by type. A message sent again with the same bytes (the ticker resends what waited a tick,
     * which a loaded machine can cause) counts once; the message names every count, resends included.
     */
    @SafeVarargs
    final void assertCommit(String what, Consumer<Transaction> body, Map<String, Integer>... expected)
            throws InterruptedException {
        run(1, body);
        StringBuilder all = new StringBuilder(what + ":");
        for (int node = 0; node < tallies.length; node++) {
            all.append(" node ").append(node).append(" commit=").append(tallies[node].sent(Family.COMMIT)).append(" ops=")
                    .append(tallies[node].sent(Family.OPS)).append(" all=").append(counting[node].counts().messages());
        }
        System.out.println(c.nodes[0].fabric() + " " + all);
        for (int node = 0; node < tallies.length; node++) {
            assertEquals(expected[node], tallies[node].distinct(Family.COMMIT),
                    "commit messages sent by node " + node + "; " + all);
        }
    }

    /**
     * Runs {@code transactions} SR transactions of node 0 one after another, each {@code body} then
     * commit; once every node is quiet and every decision acknowledged, the commit messages each
     * node sent, by type, resends included.
     */
    List<Map<String, Integer>> commitMessagesOf(int transactions, Consumer<Transaction> body) throws InterruptedException {
        run(transactions, body);
        List<Map<String, Integer>> sent = new ArrayList<>();
        for (MessageTally tally : tallies) {
            sent.add(tally.sent(Family.COMMIT));
        }
        return sent;
    }

    /** Once quiet, counts from zero while node 0 runs {@code transactions} SR transactions of {@code body}, until quiet again. */
    private void run(int transactions, Consumer<Transaction> body) throws InterruptedException {
        settle();
        for (int node = 0; node < tallies.length; node++) {
            tallies[node].reset();
            counting[node].reset();
        }
        for (int i = 0; i < transactions; i++) {
            Transaction t = c.begin(0, Isolation.SERIALIZABLE);
            body.accept(t);
            t.commit();
        }
        settle();
    }

    private void settle() throws InterruptedException {
        String left = c.awaitQuiet(5_000);
        assertTrue(c.quiet(), "left behind: " + left);
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (c.nodes[0].engine().clusterParts().messenger().pendingRounds() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(0, c.nodes[0].engine().clusterParts().messenger().pendingRounds(), "decisions not acknowledged");
    }
}
