package io.gtran.rdma.netty;

import io.gtran.rdma.Fabric;
import io.gtran.rdma.FabricContractTest;

/** The fabric contract over TCP: every node a {@link NettyFabric} on 127.0.0.1. */
class NettyFabricContractTest extends FabricContractTest {
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
