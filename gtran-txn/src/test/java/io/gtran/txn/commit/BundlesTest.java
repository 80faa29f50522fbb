package io.gtran.txn.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.txn.protocol.CommitMessage;
import io.gtran.txn.protocol.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Messages wait per peer until a bundle is full or the tick drains them, in the order they came. */
class BundlesTest {

    @Test
    void theMessageThatFillsABundleReturnsItInOrder() {
        Bundles bundles = new Bundles();
        List<CommitMessage> sent = new ArrayList<>();
        for (int i = 0; i < Bundles.FULL - 1; i++) {
            CommitMessage ack = new CommitMessage.Ack(i);
            sent.add(ack);
            assertNull(bundles.add(1, ack), "bundle left with " + (i + 1) + " messages");
            assertNull(bundles.add(2, ack), "another peer's messages count apart");
        }
        CommitMessage last = new CommitMessage.Ack(Bundles.FULL - 1);
        sent.add(last);
        CommitMessage.Bundle full = bundles.add(1, last);
        assertEquals(sent, full.messages());
        assertEquals(Map.of(2, new CommitMessage.Bundle(sent.subList(0, Bundles.FULL - 1))), bundles.drain(),
                "peer 1's messages left with its full bundle");
    }

    @Test
    void theTickTakesWhatWaitsOnceAndNothingIsLeft() {
        Bundles bundles = new Bundles();
        bundles.add(0, new CommitMessage.Ack(7));
        bundles.add(3, new CommitMessage.Decide(8, Outcome.ABORT, 0));
        bundles.add(0, new CommitMessage.Ack(9));
        Map<Integer, CommitMessage.Bundle> drained = bundles.drain();
        assertEquals(List.of(new CommitMessage.Ack(7), new CommitMessage.Ack(9)), drained.get(0).messages());
        assertEquals(1, drained.get(3).messages().size());
        assertTrue(bundles.drain().isEmpty(), "drained twice");
    }
}
