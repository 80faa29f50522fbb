package io.gtran.check.fabric;

import io.gtran.rdma.Fabric;
import io.gtran.rdma.InJvmCluster;
import java.util.ArrayList;
import java.util.List;

/** The fault-injection contract over {@link InJvmCluster}. */
class InJvmFaultInjectionTest extends FaultInjectionContractTest {
    @Override
    protected TestCluster startCluster(int nodes) {
        InJvmCluster inJvm = new InJvmCluster();
        List<Fabric> fabrics = new ArrayList<>();
        for (int node = 0; node < nodes; node++) {
            fabrics.add(inJvm.join(node));
        }
        return new TestCluster() {
            @Override
            public Fabric node(int id) {
                return fabrics.get(id);
            }

            @Override
            public void close() {
                inJvm.close();
            }

            @Override
            public String toString() {
                return inJvm.toString();
            }
        };
    }
}
