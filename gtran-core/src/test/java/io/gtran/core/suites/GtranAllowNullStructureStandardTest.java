package io.gtran.core.suites;

import io.gtran.core.GtranGraph;
import org.apache.tinkerpop.gremlin.GraphProviderClass;
import org.apache.tinkerpop.gremlin.structure.StructureStandardSuite;
import org.junit.runner.RunWith;

/** TinkerPop's structure suite against gtran on graphs that store null property values. */
@RunWith(StructureStandardSuite.class)
@GraphProviderClass(provider = GtranGraphProvider.AllowNull.class, graph = GtranGraph.class)
public class GtranAllowNullStructureStandardTest {
}
