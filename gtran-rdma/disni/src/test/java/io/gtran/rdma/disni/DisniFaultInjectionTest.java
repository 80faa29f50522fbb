package io.gtran.rdma.disni;

import io.gtran.check.fabric.FaultInjectionContractTest;
import io.gtran.rdma.Fabric;
import java.util.List;
import org.junit.jupiter.api.extension.ExtendWith;

/** The fault-injection contract over RDMA verbs; every test is skipped where RDMA is unavailable ({@link RdmaAvailable}). */
@ExtendWith(RdmaAvailable.class)
class DisniFaultInjectionTest extends FaultInjectionContractTest {
    @Override
    protected TestCluster startCluster(int nodes) {
        List<DisniFabric> fabrics = DisniTestClusters.start(nodes);
        return new TestCluster() {
            @Override
            public Fabric node(int id) {
                return fabrics.get(id);
            }

            @Override
            public void close() {
                fabrics.forEach(DisniFabric::close);
            }

            @Override
            public String toString() {
                return fabrics.toString();
            }
        };
    }
}
