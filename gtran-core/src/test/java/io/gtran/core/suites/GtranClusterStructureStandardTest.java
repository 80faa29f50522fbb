package io.gtran.core.suites;

import io.gtran.core.GtranGraph;
import org.apache.tinkerpop.gremlin.GraphProviderClass;
import org.apache.tinkerpop.gremlin.structure.StructureStandardSuite;
import org.junit.runner.RunWith;

/**
 * TinkerPop's structure suite against a graph on a 3-node in-JVM cluster at serializable isolation,
 * pushed execution (see GtranGraphProvider.Cluster).
 */
@RunWith(StructureStandardSuite.class)
@GraphProviderClass(provider = GtranGraphProvider.Cluster.class, graph = GtranGraph.class)
public class GtranClusterStructureStandardTest {
}
