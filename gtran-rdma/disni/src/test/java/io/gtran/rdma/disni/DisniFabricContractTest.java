package io.gtran.rdma.disni;

import io.gtran.rdma.Fabric;
import io.gtran.rdma.FabricContractTest;
import java.util.List;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The fabric contract over RDMA verbs. Where there is no RDMA device or no libdisni every test is
 * skipped, with {@link RdmaSupport}'s message as the reason ({@link RdmaAvailable}; startCluster also
 * assumes it); see {@link DisniTestClusters} for addresses.
 */
@ExtendWith(RdmaAvailable.class)
class DisniFabricContractTest extends FabricContractTest {
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
