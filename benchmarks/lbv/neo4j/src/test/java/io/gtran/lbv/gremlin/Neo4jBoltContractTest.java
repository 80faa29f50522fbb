package io.gtran.lbv.gremlin;

import io.gtran.lbv.LbvSystem;
import io.gtran.lbv.neo4j.Neo4jBoltLbvSystem;
import io.gtran.lbv.neo4j.Neo4jLbvSystem;
import org.junit.jupiter.api.Timeout;

import java.util.Map;

/** {@link Neo4jContractTest} (the contract with Neo4j's exceptions) over Neo4j queried through Bolt. */
@Timeout(120)
class Neo4jBoltContractTest extends Neo4jContractTest {
    @Override
    protected LbvSystem open() {
        return new Neo4jBoltLbvSystem(Map.of(Neo4jLbvSystem.OPT_PAGECACHE, "16m", Neo4jLbvSystem.OPT_BATCH, "5",
                Neo4jLbvSystem.OPT_PREPARE, "false"));
    }
}
