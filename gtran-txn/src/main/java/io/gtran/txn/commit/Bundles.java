package io.gtran.txn.commit;

import io.gtran.txn.protocol.CommitMessage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Commit messages that may wait a little, gathered per peer until {@value #FULL} wait for one peer
 * or the commit tick takes them all (docs/cluster-transactions.md, "Bundles"). Thread-safe.
 */
final class Bundles {
    /** How many messages for one peer make a bundle leave at once. */
    static final int FULL = 32;

    /** Messages waiting, by peer; guarded by this. */
    private final Map<Integer, List<CommitMessage>> waiting = new HashMap<>();

    /** Adds {@code message} for {@code peer}; returns the bundle to send now if that made one full, else null. */
    synchronized CommitMessage.Bundle add(int peer, CommitMessage message) {
        List<CommitMessage> gathered = waiting.computeIfAbsent(peer, p -> new ArrayList<>());
        gathered.add(message);
        if (gathered.size() < FULL) {
            return null;
        }
        waiting.remove(peer);
        return new CommitMessage.Bundle(gathered);
    }

    /** Every waiting message as one bundle per peer, taken out. */
    synchronized Map<Integer, CommitMessage.Bundle> drain() {
        Map<Integer, CommitMessage.Bundle> bundles = new HashMap<>();
        waiting.forEach((peer, gathered) -> bundles.put(peer, new CommitMessage.Bundle(gathered)));
        waiting.clear();
        return bundles;
    }
}
