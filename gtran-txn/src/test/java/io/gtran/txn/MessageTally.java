package io.gtran.txn;

import io.gtran.rdma.Fabric;
import io.gtran.rdma.ForwardingFabric;
import io.gtran.rdma.ForwardingMailbox;
import io.gtran.rdma.Mailbox;
import io.gtran.txn.protocol.CommitMessage;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A fabric decorator that records every message its node sends to another node, by destination
 * mailbox, so that a test can tell the commit protocol's messages ({@code gtran.commit}) from
 * operations ({@code gtran.ops}) and clock samples ({@code gtran.clock}). Commit messages are
 * named by their type byte; a message sent again (a resend of an unanswered one, same bytes) is
 * counted in {@link #sent} and once in {@link #distinct}.
 */
final class MessageTally extends ForwardingFabric {
    /** CommitMessenger's message types, in the order of their type byte. */

    private record Sent(String mailbox, int to, String what, String bytes) {
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
                    String what = mailbox.equals("gtran.commit") ? CommitMessage.decode(payload).type().name() : mailbox;
                    sent.add(new Sent(mailbox, node, what, HexFormat.of().formatHex(payload)));
                }
                return super.send(node, mailbox, payload);
            }
        };
    }

    void reset() {
        sent.clear();
    }

    /** Messages sent to {@code mailbox} on other nodes, by type for gtran.commit, resends included. */
    Map<String, Integer> sent(String mailbox) {
        Map<String, Integer> counts = new TreeMap<>();
        for (Sent s : sent) {
            if (s.mailbox().equals(mailbox)) {
                counts.merge(s.what(), 1, Integer::sum);
            }
        }
        return counts;
    }

    /** As {@link #sent}, a message sent again with the same bytes to the same node counted once. */
    Map<String, Integer> distinct(String mailbox) {
        Map<String, Integer> counts = new TreeMap<>();
        sent.stream().filter(s -> s.mailbox().equals(mailbox)).distinct().forEach(s -> counts.merge(s.what(), 1, Integer::sum));
        return counts;
    }
}
