package io.gtran.txn;

import io.gtran.rdma.Fabric;
import io.gtran.rdma.ForwardingFabric;
import io.gtran.rdma.ForwardingMailbox;
import io.gtran.rdma.Mailbox;
import io.gtran.txn.protocol.Family;
import io.gtran.txn.protocol.NodeMailbox;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;

/**
 * A fabric decorator that counts the messages a node sends to other nodes on behalf of
 * transactions, with their bytes: operation requests and replies, a pushed chain's messages, and
 * commit messages ({@link Family#OPS}, {@link Family#COMMIT}). Heartbeats, cluster greetings, dictionary names, clock
 * samples and the GC watermark's reads run on their own whatever the transactions do and are left
 * out. For benchmarks that report messages per query ({@code bin/gtran bench messages}).
 */
public final class QueryTraffic extends ForwardingFabric {
    private final LongAdder messages = new LongAdder();
    private final LongAdder bytes = new LongAdder();

    public QueryTraffic(Fabric delegate) {
        super(delegate);
    }

    /** Messages counted so far. */
    public long messages() {
        return messages.sum();
    }

    /** Their payload bytes. */
    public long bytes() {
        return bytes.sum();
    }

    @Override
    public Mailbox openMailbox(String name, int capacity) {
        return new ForwardingMailbox(super.openMailbox(name, capacity)) {
            @Override
            public CompletableFuture<Void> send(int node, String mailbox, byte[] payload) {
                boolean counted = mailbox.equals(NodeMailbox.NAME)
                        && (Family.of(payload) == Family.COMMIT || ClusterParts.isOperation(payload));
                if (node != localNode() && counted) {
                    messages.increment();
                    bytes.add(payload.length);
                }
                return super.send(node, mailbox, payload);
            }

            @Override
            public boolean handOnArrival(Arrival arrival) {
                return delegate().handOnArrival(arrival); // counts sends only: arrivals pass as they are
            }
        };
    }
}
