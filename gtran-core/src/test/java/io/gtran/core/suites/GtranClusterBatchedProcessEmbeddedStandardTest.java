package io.gtran.core.suites;

import io.gtran.core.GtranGraph;
import org.apache.tinkerpop.gremlin.GraphProviderClass;
import org.apache.tinkerpop.gremlin.process.ProcessEmbeddedStandardSuite;
import org.junit.runner.RunWith;

/**
 * TinkerPop's embedded process suite against a graph on a 3-node in-JVM cluster at serializable isolation,
 * batched execution (see GtranGraphProvider.ClusterBatched).
 */
@RunWith(ProcessEmbeddedStandardSuite.class)
@GraphProviderClass(provider = GtranGraphProvider.ClusterBatched.class, graph = GtranGraph.class)
public class GtranClusterBatchedProcessEmbeddedStandardTest {
}
