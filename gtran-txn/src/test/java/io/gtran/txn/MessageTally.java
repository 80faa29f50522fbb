package io.gtran.txn;

import io.gtran.rdma.Fabric;
import io.gtran.rdma.ForwardingFabric;
import io.gtran.rdma.ForwardingMailbox;
import io.gtran.rdma.Mailbox;
import io.gtran.txn.protocol.CommitMessage;
import io.gtran.txn.protocol.Family;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A fabric decorator that records every message its node sends to another node, by {@link
 * Family}, so that a test can tell the commit protocol's messages from operations, membership's
 * and clock samples. Commit messages are
 * named by their type byte; a message sent again (a resend of an unanswered one, same bytes) is
 * counted in {@link #sent} and once in {@link #distinct}.
 */
final class MessageTally extends ForwardingFabric {
    private record Sent(Family family, int to, String what, String bytes) {
    }

    private final ConcurrentLinkedQueue<Sent> sent = new ConcurrentLinkedQueue<>();

    MessageTally(Fabric delegate) {
        super(delegate);
    }

    @Override
    public Mailbox openMailbox(String name, int capacity) {
        return new ForwardingMailbox(super.openMailbox(name, capacity)) {
            @Override
            public CompletableFuture<Void> send(int node, String mailbox, byte[] payload) {
                if (node != localNode()) {
                    Family family = Family.of(payload);
                    String what = family == Family.COMMIT ? CommitMessage.decode(payload).type().name() : String.valueOf(family);
                    sent.add(new Sent(family, node, what, HexFormat.of().formatHex(payload)));
                }
                return super.send(node, mailbox, payload);
            }
        };
    }

    void reset() {
        sent.clear();
    }

    /** Messages of {@code family} sent to other nodes, by type for {@link Family#COMMIT}, resends included. */
    Map<String, Integer> sent(Family family) {
        Map<String, Integer> counts = new TreeMap<>();
        for (Sent s : sent) {
            if (s.family() == family) {
                counts.merge(s.what(), 1, Integer::sum);
            }
        }
        return counts;
    }

    /** As {@link #sent}, a message sent again with the same bytes to the same node counted once. */
    Map<String, Integer> distinct(Family family) {
        Map<String, Integer> counts = new TreeMap<>();
        sent.stream().filter(s -> s.family() == family).distinct().forEach(s -> counts.merge(s.what(), 1, Integer::sum));
        return counts;
    }
}
