package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertSame;

import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.TransactionConflictException;
import io.gtran.txn.protocol.OpsMessage;
import org.junit.jupiter.api.Test;

/**
 * Which failure a pushed chain's client is told when two come: a conflict thrown by a stage at the
 * coordinator aborted the transaction, so a member's refusal that the abort caused does not hide it.
 */
class ChainFailureTest {
    private static final Chains.Failure REFUSED = new Chains.Failure(2, new OpsMessage.Refused("txn(0:0:7) has finished at node 2"), null);
    private static final Chains.Failure CONFLICT_HERE = new Chains.Failure(0, null,
            new TransactionConflictException(ConflictKind.WRITE_WRITE, 7, 9, null, "v[1]", null));

    @Test
    void aConflictThrownHereReplacesARefusalThatCameFirst() {
        assertSame(CONFLICT_HERE, REFUSED.then(CONFLICT_HERE));
    }

    @Test
    void otherwiseTheFirstFailureStays() {
        assertSame(CONFLICT_HERE, CONFLICT_HERE.then(REFUSED));
        Chains.Failure remoteConflict = new Chains.Failure(1, new OpsMessage.Conflict(false, false, ConflictKind.WRITE_WRITE, 9,
                "v[2]", null), null);
        assertSame(remoteConflict, remoteConflict.then(CONFLICT_HERE));
        Chains.Failure failedHere = new Chains.Failure(0, null, new IllegalStateException("a step failed"));
        assertSame(REFUSED, REFUSED.then(failedHere), "only a conflict aborts the transaction as it is thrown");
    }
}
