package io.gtran.lbv.gremlin;

import io.gtran.lbv.LbvSystem;
import io.gtran.lbv.janusgraph.JanusGraphServerLbvSystem;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Map;

/** lbv-gremlin's contract over JanusGraph behind Gremlin Server, queried through gremlin-driver. */
@Timeout(120)
class JanusGraphServerContractTest extends GremlinSystemContract {
    @Override
    protected LbvSystem open() {
        return new JanusGraphServerLbvSystem(Map.of(GremlinSystem.BATCH, "5", JanusGraphServerLbvSystem.GREMLIN_POOL, "4"));
    }

    /** As for JanusGraphContractTest: the inmemory backend with locking off detects no conflicts. */
    @Override
    @Test
    void concurrentConflictingWritesAbortRetryablyAndLeaveNoTrace() {
        Assumptions.abort("JanusGraph inmemory with locking off detects no write conflicts: nothing aborts");
    }
}
