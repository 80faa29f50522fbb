package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.storage.ElementIds;
import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.ElementNotFoundException;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Transactions that span nodes (docs/cluster-transactions.md), written once and run over each
 * transport: three members, transactions coordinated on one node with their items on the others.
 * Every id is interned on the node whose engine uses it ({@link #label}, {@link #key}); the ids
 * agree across nodes (node 0 gives them, see DictionaryAgreementContract).
 */
@Timeout(60)
abstract class ClusterTransactionsContract extends ClusterContract {
    private static final Isolation SR = Isolation.SERIALIZABLE;

    /** How long the bank transfers run (shorter where messages cost more). */
    protected abstract long bankMillis();



    /** A committed vertex "item" on {@code owner} with n = {@code n}, created by a transaction of node 0. */
    private long item(int owner, long n) {
        Transaction t = c.begin(0, SR);
        long v = t.addVertex(owner, label(0, "item"));
        t.setVertexProperty(v, key(0, "n"), n);
        t.commit();
        return v;
    }

    /** What a fresh transaction of node {@code at} reads as n of {@code v}. */
    private Object n(int at, long v) {
        Transaction t = c.begin(at, SR);
        Object value = t.vertexProperty(v, key(at, "n"));
        t.commit();
        return value;
    }

    private boolean exists(int at, long v) {
        Transaction t = c.begin(at, SR);
        boolean exists = t.vertexExists(v);
        t.commit();
        return exists;
    }

    /** Commits a transaction of node {@code at} that sets n of each vertex to {@code value}. */
    private void write(int at, long value, long... vertices) {
        Transaction t = c.begin(at, SR);
        for (long v : vertices) {
            t.setVertexProperty(v, key(at, "n"), value);
        }
        t.commit();
    }

    /** No node keeps a status entry or a participant context once the decisions have spread. */
    private void assertQuiet() throws InterruptedException {
        String left = c.awaitQuiet(5_000);
        assertTrue(c.quiet(), "left behind: " + left);
    }

    @Test
    void writesOnTwoOtherNodesCommitTogetherAndAreInvisibleBefore() throws Exception {
        start();
        long a = item(1, 10);
        long b = item(2, 20);
        Transaction t = c.begin(0, SR);
        t.setVertexProperty(a, key(0, "n"), 11L);
        t.setVertexProperty(b, key(0, "n"), 21L);
        long created = t.addVertex(2, label(0, "item"));
        Transaction before = c.begin(1, SR); // concurrent, on another node
        assertEquals(10L, before.vertexProperty(a, key(1, "n")), "an uncommitted write on node 1 was visible");
        assertEquals(20L, before.vertexProperty(b, key(1, "n")), "an uncommitted write on node 2 was visible");
        assertFalse(before.vertexExists(created), "an uncommitted vertex on node 2 was visible");
        t.commit();
        assertEquals(10L, before.vertexProperty(a, key(1, "n")), "the snapshot changed under a running reader");
        before.commit();
        for (int node = 0; node < 3; node++) {
            assertEquals(11L, n(node, a), "node " + node + " reads the commit's write on node 1");
            assertEquals(21L, n(node, b), "node " + node + " reads the commit's write on node 2");
            assertTrue(exists(node, created), "node " + node + " sees the vertex created on node 2");
        }
        assertQuiet();
    }

    @Test
    void aRollbackUndoesTheWritesOnOtherNodesAndLeavesNothingBehind() throws Exception {
        start();
        long a = item(1, 10);
        long b = item(2, 20);
        Transaction t = c.begin(0, SR);
        t.setVertexProperty(a, key(0, "n"), 11L);
        t.setVertexProperty(b, key(0, "n"), 21L);
        long created = t.addVertex(2, label(0, "item"));
        t.setVertexProperty(created, key(0, "n"), 1L);
        t.rollback();
        assertQuiet();
        for (int node = 0; node < 3; node++) {
            assertEquals(10L, n(node, a), "node " + node + " after the rollback");
            assertEquals(20L, n(node, b), "node " + node + " after the rollback");
            assertFalse(exists(node, created), "node " + node + " sees the rolled-back vertex");
        }
        write(2, 12L, a, b); // a word that kept the rolled-back id would stop this writer
        write(1, 13L, a, b);
        assertEquals(13L, n(0, a));
        assertEquals(13L, n(0, b));
        assertQuiet();
    }

    @Test
    void anAbortForAConflictUndoesTheWritesOnOtherNodes() throws Exception {
        start();
        long a = item(1, 10);
        long b = item(2, 20);
        Transaction holder = c.begin(2, SR);
        holder.setVertexProperty(b, key(2, "n"), 99L);
        Transaction t = c.begin(0, SR);
        t.setVertexProperty(a, key(0, "n"), 11L);
        long created = t.addVertex(1, label(0, "item"));
        TransactionConflictException e = assertThrows(TransactionConflictException.class,
                () -> t.setVertexProperty(b, key(0, "n"), 21L));
        assertEquals(ConflictKind.WRITE_WRITE, e.kind(), e.getMessage());
        assertFalse(t.isActive());
        holder.commit();
        assertQuiet();
        for (int node = 0; node < 3; node++) {
            assertEquals(10L, n(node, a), "node " + node + ": the aborted write on node 1 is undone");
            assertEquals(99L, n(node, b));
            assertFalse(exists(node, created), "node " + node + ": the aborted vertex on node 1 is undone");
        }
        write(2, 12L, a);
        write(1, 13L, a);
        assertEquals(13L, n(0, a));
        assertQuiet();
    }

    @ParameterizedTest
    @EnumSource(Isolation.class)
    void aWriteWriteConflictIsFoundAtTheOwnerAndUndoesTheLoserEverywhere(Isolation isolation) throws Exception {
        start();
        long x = item(2, 0);
        long y = item(1, 0);
        long z = item(0, 0);
        Transaction first = c.begin(0, isolation);
        first.setVertexProperty(x, key(0, "n"), 1L);
        Transaction second = c.begin(1, isolation);
        Transaction late = c.begin(1, isolation); // begins before first commits, writes x after
        second.setVertexProperty(z, key(1, "n"), 2L); // on node 0, remote for it
        second.setVertexProperty(y, key(1, "n"), 2L); // its own node
        TransactionConflictException e = assertThrows(TransactionConflictException.class,
                () -> second.setVertexProperty(x, key(1, "n"), 2L));
        assertEquals(ConflictKind.WRITE_WRITE, e.kind(), e.getMessage());
        assertTrue(e.getMessage().contains("at node 2"), "the owner found it: " + e.getMessage());
        first.commit();
        if (isolation == Isolation.SNAPSHOT) {
            TransactionConflictException fcw = assertThrows(TransactionConflictException.class,
                    () -> late.setVertexProperty(x, key(1, "n"), 3L));
            assertEquals(ConflictKind.FIRST_COMMITTER_WINS, fcw.kind(), fcw.getMessage());
        } else {
            late.setVertexProperty(x, key(1, "n"), 3L); // SR: a blind write goes on top of the commit
            late.commit();
        }
        assertQuiet();
        long expected = isolation == Isolation.SNAPSHOT ? 1L : 3L;
        for (int node = 0; node < 3; node++) {
            assertEquals(expected, n(node, x), "node " + node);
            assertEquals(0L, n(node, y), "node " + node + ": the loser's write on its own node is undone");
            assertEquals(0L, n(node, z), "node " + node + ": the loser's write on node 0 is undone");
        }
        write(2, 5L, y, z); // nothing the loser wrote still holds its id
        assertEquals(5L, n(1, z));
        assertQuiet();
    }

    @Test
    void aSerializableReadOnAnotherNodeIsValidatedThere() throws Exception {
        start();
        long x = item(2, 0);
        long y = item(1, 0);
        Transaction t1 = c.begin(0, SR);
        assertEquals(0L, t1.vertexProperty(x, key(0, "n")));
        t1.setVertexProperty(y, key(0, "n"), 1L);
        write(1, 2L, x); // T2, begun on node 1, writes x and commits first
        TransactionConflictException e = assertThrows(TransactionConflictException.class, t1::commit);
        assertTrue(Set.of(ConflictKind.READ_WRITE, ConflictKind.PARTICIPANT_VOTED_NO).contains(e.kind()), e.getMessage());
        assertQuiet();
        for (int node = 0; node < 3; node++) {
            assertEquals(0L, n(node, y), "node " + node + ": T1's write on node 1 is undone");
            assertEquals(2L, n(node, x));
        }
    }

    @ParameterizedTest
    @EnumSource(Isolation.class)
    void writeSkewAcrossNodesCommitsUnderSnapshotOnly(Isolation isolation) throws Exception {
        start();
        long x = item(1, 0);
        long y = item(2, 0);
        Transaction t1 = c.begin(0, isolation);
        Transaction t2 = c.begin(2, isolation);
        long sum1 = (Long) t1.vertexProperty(x, key(0, "n")) + (Long) t1.vertexProperty(y, key(0, "n"));
        long sum2 = (Long) t2.vertexProperty(x, key(2, "n")) + (Long) t2.vertexProperty(y, key(2, "n"));
        t1.setVertexProperty(x, key(0, "n"), sum1 + 1); // on node 1
        t2.setVertexProperty(y, key(2, "n"), sum2 + 1); // its own node
        int committed = commitEach(t1, t2);
        assertEquals(isolation == Isolation.SNAPSHOT ? 2 : 1, committed, "transactions of the write-skew pair committed");
        assertQuiet();
        long total = (Long) n(1, x) + (Long) n(1, y);
        assertEquals(isolation == Isolation.SNAPSHOT ? 2 : 1, total);
    }

    /**
     * SR reads of names the owner has never interned: a property key no element of node 1 or 2 has
     * yet, and a label no vertex there has yet. Each transaction of a pair reads what the other
     * writes (the first write of the name there), so at most one may commit.
     */
    @Test
    void readsOfNamesTheOwnerHasNeverSeenAreStillValidated() throws Exception {
        start();
        long x = item(1, 0);
        long y = item(2, 0);
        Transaction t1 = c.begin(0, SR);
        Transaction t2 = c.begin(0, SR);
        int fresh = key(0, "fresh");
        for (Transaction t : new Transaction[] {t1, t2}) {
            assertEquals(null, t.vertexProperty(x, fresh));
            assertEquals(null, t.vertexProperty(y, fresh));
        }
        t1.setVertexProperty(x, fresh, 1L);
        t2.setVertexProperty(y, fresh, 1L);
        assertEquals(1, commitEach(t1, t2), "write skew over a property key nodes 1 and 2 had never seen");
        Transaction u1 = c.begin(0, SR);
        Transaction u2 = c.begin(0, SR);
        int person = label(0, "person");
        assertEquals(0, u1.countVertices(person));
        assertEquals(0, u2.vertices(person).length);
        u1.addVertex(1, person);
        u2.addVertex(2, person);
        assertEquals(1, commitEach(u1, u2), "phantoms of a label nodes 1 and 2 had never seen");
        assertQuiet();
    }

    /** Commits each transaction in turn; returns how many committed (the others met a conflict). */
    private static int commitEach(Transaction... transactions) {
        int committed = 0;
        for (Transaction t : transactions) {
            try {
                t.commit();
                committed++;
            } catch (TransactionConflictException e) {
                // counted by the caller
            }
        }
        return committed;
    }

    @Test
    void scansAndCountsSpanTheMembers() throws Exception {
        start();
        long[] committed = new long[6];
        int i = 0;
        for (int owner = 0; owner < 3; owner++) {
            Transaction t = c.begin(owner, SR);
            for (int k = 0; k <= owner; k++) {
                committed[i++] = t.addVertex(label(owner, "person"));
            }
            t.commit();
        }
        Transaction t = c.begin(0, SR);
        int person = label(0, "person");
        assertArrayEquals(sorted(committed), sorted(t.vertices(person)), "vertices(person) from node 0");
        assertEquals(6, t.countVertices(person));
        assertEquals(0, t.countVertices(label(0, "nobody")), "a label no member has");
        long on1 = t.addVertex(1, person);
        long on2 = t.addVertex(2, person);
        long[] all = Arrays.copyOf(committed, 8);
        all[6] = on1;
        all[7] = on2;
        assertArrayEquals(sorted(all), sorted(t.vertices(person)), "its own uncommitted creations on nodes 1 and 2");
        assertEquals(8, t.countVertices(person));
        Transaction other = c.begin(2, SR);
        assertEquals(6, other.countVertices(label(2, "person")), "a concurrent transaction counts committed vertices only");
        assertEquals(6, other.vertices(label(2, "person")).length);
        other.commit();
        t.commit();
        Transaction after = c.begin(1, SR);
        assertEquals(8, after.countVertices(label(1, "person")));
        assertArrayEquals(sorted(all), sorted(after.vertices(label(1, "person"))));
        after.commit();
        assertQuiet();
    }

    private static long[] sorted(long[] ids) {
        long[] copy = ids.clone();
        Arrays.sort(copy);
        return copy;
    }

    @Test
    void badRequestsAreRefusedAndAMissingElementLeavesTheTransactionUsable() throws Exception {
        start();
        long a = item(1, 1);
        long b = item(2, 2);
        Transaction t = c.begin(0, SR);
        IllegalArgumentException notMember = assertThrows(IllegalArgumentException.class, () -> t.addVertex(7, label(0, "item")));
        assertTrue(notMember.getMessage().contains("node 7"), notMember.getMessage());
        long elsewhere = ElementIds.vertexId(7, 0, 1);
        assertThrows(ElementNotFoundException.class, () -> t.addEdge(a, elsewhere, label(0, "knows")),
                "an edge to a vertex of a node that is not a member");
        long missing = ElementIds.vertexId(2, 0, 4_000);
        ElementNotFoundException notFound = assertThrows(ElementNotFoundException.class,
                () -> t.vertexProperty(missing, key(0, "n")));
        assertEquals(missing, notFound.elementId(), notFound.getMessage());
        assertFalse(t.vertexExists(missing));
        assertTrue(t.isActive(), "a missing element does not end the transaction");
        t.setVertexProperty(b, key(0, "n"), 3L);
        long e = t.addEdge(b, t.addVertex(2, label(0, "item")), label(0, "knows"));
        t.commit();
        assertEquals(3L, n(1, b));
        Transaction r = c.begin(1, SR);
        assertEquals(label(1, "knows"), r.edgeLabel(e), "an edge on node 2 read from node 1");
        r.commit();
        assertQuiet();
    }

    /**
     * Commit messages per commit, as docs/cluster-transactions.md counts
     * them: VALIDATE and DECIDE to each other participant, a VOTE and an ACK from each; a read-only
     * transaction sends no VALIDATE, only a DECIDE that releases each part, in a bundle (alone in
     * it here), and each part's ACK comes in a bundle; one node, nothing.
     */
    @Test
    void aCommitCostsTheMessagesOfItsParticipants() throws Exception {
        CommitCosts costs = countedCluster();
        long v0 = item(0, 0);
        long v1 = item(1, 0);
        long v2 = item(2, 0);
        int n = key(0, "n");
        costs.assertCommit("read-only over nodes 0,1,2", t -> {
            t.vertexProperty(v0, n);
            t.vertexProperty(v1, n);
            t.vertexProperty(v2, n);
        }, Map.of("BUNDLE", 2), Map.of("BUNDLE", 1), Map.of("BUNDLE", 1));
        costs.assertCommit("writes on node 0 only", t -> t.setVertexProperty(v0, n, 1L), Map.of(), Map.of(), Map.of());
        costs.assertCommit("writes on nodes 0 and 1", t -> {
            t.setVertexProperty(v0, n, 2L);
            t.setVertexProperty(v1, n, 2L);
        }, Map.of("VALIDATE", 1, "DECIDE", 1), Map.of("VOTE", 1, "ACK", 1), Map.of());
        costs.assertCommit("writes on nodes 0, 1 and 2", t -> {
            t.setVertexProperty(v0, n, 3L);
            t.setVertexProperty(v1, n, 3L);
            t.setVertexProperty(v2, n, 3L);
        }, Map.of("VALIDATE", 2, "DECIDE", 2), Map.of("VOTE", 1, "ACK", 1), Map.of("VOTE", 1, "ACK", 1));
        costs.assertCommit("SR: writes on node 1, reads on node 2 (validated there)", t -> {
            t.vertexProperty(v2, n);
            t.setVertexProperty(v1, n, 4L);
        }, Map.of("VALIDATE", 2, "DECIDE", 2), Map.of("VOTE", 1, "ACK", 1), Map.of("VOTE", 1, "ACK", 1));
    }

    /**
     * Read-only transactions release their parts in bundles (docs/cluster-transactions.md,
     * "Bundles"): 200 of them over nodes 0, 1 and 2 send under a quarter of the 400 DECIDEs and 400
     * ACKs one message each would take (one bundle per peer and tick at most, when run one after
     * another), and every part is released (the settle checks it).
     */
    @Test
    void readOnlyTransactionsReleaseTheirPartsInBundles() throws Exception {
        CommitCosts costs = countedCluster();
        long v1 = item(1, 0);
        long v2 = item(2, 0);
        List<Map<String, Integer>> sent = costs.commitMessagesOf(200, t -> {
            t.vertexProperty(v1, key(0, "n"));
            t.vertexProperty(v2, key(0, "n"));
        });
        int all = sent.stream().flatMap(m -> m.values().stream()).mapToInt(Integer::intValue).sum();
        assertEquals(List.of("BUNDLE"), sent.stream().flatMap(m -> m.keySet().stream()).distinct().toList(), sent.toString());
        assertTrue(all < 200, "200 read-only transactions over three nodes sent " + all + " commit messages: " + sent);
    }

    /** Three nodes whose commit messages are counted. */
    private CommitCosts countedCluster() throws Exception {
        CommitCosts costs = new CommitCosts(3);
        c = new ClusterNodes(transport(), 3, costs::wrap);
        costs.on(c);
        return costs;
    }

    /** A participant that votes NO undoes its writes before its coordinator's status says ABORTED: see {@link UndoRace}. */
    @Test
    void readersOnANodeThatVotedNoNeverLoseACommittedValue() throws Exception {
        start();
        System.out.println("undo race over " + transport() + ": " + UndoRace.run(c, 2_000));
    }

    @Test
    @Timeout(120)
    void bankTransfersAcrossNodesKeepTheTotal() throws Exception {
        start();
        long seed = Long.getLong("gtran.test.seed", 0x5EED_0003L);
        System.out.println("cluster bank over " + transport() + ": " + new ClusterBank(c, seed).run(bankMillis()));
    }
}
