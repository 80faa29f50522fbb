package io.gtran.check.faults;

import io.gtran.txn.NodeFaults;
import io.gtran.txn.agent.TimeSource;
import java.nio.file.Path;

/**
 * The {@link NodeFaults.Provider} a node finds with {@link java.util.ServiceLoader} when it is opened
 * with {@code gtran.faults.control} (registered in {@code META-INF/services}): a {@link FaultControl}
 * over the control file.
 */
public final class FaultControlProvider implements NodeFaults.Provider {
    @Override
    public NodeFaults open(Path control, int node, TimeSource wall, long lostAfterMs) {
        return new FaultControl(control, node, wall, lostAfterMs);
    }
}
