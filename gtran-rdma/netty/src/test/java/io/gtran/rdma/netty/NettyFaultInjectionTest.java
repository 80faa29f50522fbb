package io.gtran.rdma.netty;

import io.gtran.check.fabric.FaultInjectionContractTest;
import io.gtran.rdma.Fabric;

/** The fault-injection contract over TCP: {@link io.gtran.check.fabric.FaultyFabric} decorators over {@link NettyFabric} nodes. */
class NettyFaultInjectionTest extends FaultInjectionContractTest {
    @Override
    protected TestCluster startCluster(int nodes) {
        NettyTestCluster cluster = NettyTestCluster.start(nodes);
        return new TestCluster() {
            @Override
            public Fabric node(int id) {
                return cluster.node(id);
            }

            @Override
            public void close() {
                cluster.close();
            }

            @Override
            public String toString() {
                return cluster.toString();
            }
        };
    }
}
