package io.gtran.txn.commit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.txn.common.TxnWords;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * A transaction's part and its slot's sequence, as messages of it on two threads find them: the
 * steps of one thread are run inside the other's, where a race would put them.
 */
class PartTableTest {
    private static final long FIRST = TxnWords.txnId(0, 0, 1);

    @Test
    void aTransactionWhosePartIsBeingMadeIsNotForgotten() {
        PartTable<Object>[] table = new PartTable[1];
        boolean[] forgottenWhileMade = new boolean[1];
        table[0] = new PartTable<>(() -> {
            forgottenWhileMade[0] = table[0].forgotten(FIRST); // another message of it, as the part is made
            return new Object();
        });
        table[0].part(FIRST);
        assertFalse(forgottenWhileMade[0], "a part being made was taken for a decided and forgotten one");
        assertFalse(table[0].forgotten(FIRST));
    }

    @Test
    void aPartMadeBetweenTheTwoReadsOfForgottenIsFound() {
        PartTable<Object>[] table = new PartTable[1];
        ConcurrentHashMap<Long, Object> parts = new ConcurrentHashMap<>() {
            private boolean raced;

            @Override
            public boolean containsKey(Object key) {
                boolean held = super.containsKey(key);
                if (!raced) {
                    raced = true;
                    table[0].part(FIRST); // another message of it makes the part right after this read
                }
                return held;
            }
        };
        table[0] = new PartTable<>(Object::new, parts);
        assertFalse(table[0].forgotten(FIRST), "a part made while forgotten() ran was taken for a forgotten one");
    }

    @Test
    void aDecidedPartDroppedAfterALaterSequenceIsForgotten() {
        PartTable<Object> table = new PartTable<>(Object::new);
        Object part = table.part(FIRST);
        assertSame(part, table.part(FIRST));
        table.part(TxnWords.txnId(0, 0, 2));
        assertTrue(table.laterSeen(FIRST));
        table.remove(FIRST);
        assertTrue(table.forgotten(FIRST));
        assertFalse(table.forgotten(TxnWords.txnId(0, 0, 3)), "a new transaction of the slot");
        assertFalse(table.forgotten(TxnWords.txnId(0, 1, 1)), "another slot");
        table.restarted(0);
        assertFalse(table.forgotten(FIRST), "its coordinator restarted: its sequences start again");
    }
}
