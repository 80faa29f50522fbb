package io.gtran.txn.protocol;

import io.gtran.rdma.Fabric;
import io.gtran.txn.agent.AgentHost;
import io.gtran.txn.agent.TimeSource;

/** Node mailboxes for tests that run one role (the commit messenger, the clock sync) without a node. */
public final class TestMailboxes {
    private TestMailboxes() {
    }

    /** {@code fabric}'s node mailbox, receiving on a thread from now on; roles take their families later. */
    public static NodeMailbox started(Fabric fabric) {
        return started(fabric, TimeSource.SYSTEM);
    }

    /** As above, telling each handler the time of {@code time}, the node's (a clock sync's replies are read on it). */
    public static NodeMailbox started(Fabric fabric, TimeSource time) {
        NodeMailbox mailbox = new NodeMailbox(fabric, AgentHost.threads(time));
        mailbox.start();
        return mailbox;
    }
}
