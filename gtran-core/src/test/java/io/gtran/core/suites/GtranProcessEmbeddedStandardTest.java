package io.gtran.core.suites;

import io.gtran.core.GtranGraph;
import org.apache.tinkerpop.gremlin.GraphProviderClass;
import org.apache.tinkerpop.gremlin.process.ProcessEmbeddedStandardSuite;
import org.junit.runner.RunWith;

/** TinkerPop's embedded process suite against gtran at serializable isolation. */
@RunWith(ProcessEmbeddedStandardSuite.class)
@GraphProviderClass(provider = GtranGraphProvider.class, graph = GtranGraph.class)
public class GtranProcessEmbeddedStandardTest {
}
