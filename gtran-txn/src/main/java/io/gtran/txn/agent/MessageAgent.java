package io.gtran.txn.agent;

import io.gtran.rdma.Message;
import java.util.concurrent.TimeUnit;

/** An {@link Agent} with nothing timed to do: it only handles the messages of its mailbox. */
public interface MessageAgent extends Agent {
    /** Runs again a second later; there is nothing to do but the runner looks at the time then. */
    @Override
    default long doWork(long nowNanos) {
        return nowNanos + TimeUnit.SECONDS.toNanos(1);
    }

    @Override
    void onMessage(Message message, long nowNanos);
}
