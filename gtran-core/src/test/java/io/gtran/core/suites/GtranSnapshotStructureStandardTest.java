package io.gtran.core.suites;

import io.gtran.core.GtranGraph;
import org.apache.tinkerpop.gremlin.GraphProviderClass;
import org.apache.tinkerpop.gremlin.structure.StructureStandardSuite;
import org.junit.runner.RunWith;

/** TinkerPop's structure suite against gtran at snapshot isolation. */
@RunWith(StructureStandardSuite.class)
@GraphProviderClass(provider = GtranGraphProvider.Snapshot.class, graph = GtranGraph.class)
public class GtranSnapshotStructureStandardTest {
}
