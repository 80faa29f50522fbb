package io.gtran.core.suites;

import io.gtran.core.GtranGraph;
import org.apache.tinkerpop.gremlin.GraphProviderClass;
import org.apache.tinkerpop.gremlin.process.ProcessEmbeddedStandardSuite;
import org.junit.runner.RunWith;

/**
 * TinkerPop's embedded process suite against a graph on a 3-node in-JVM cluster at serializable isolation,
 * pushed execution (see GtranGraphProvider.Cluster).
 */
@RunWith(ProcessEmbeddedStandardSuite.class)
@GraphProviderClass(provider = GtranGraphProvider.Cluster.class, graph = GtranGraph.class)
public class GtranClusterProcessEmbeddedStandardTest {
}
