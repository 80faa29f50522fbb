package io.gtran.server;

import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import com.google.inject.Stage;
import io.cucumber.guice.CucumberModules;
import io.cucumber.junit.Cucumber;
import io.cucumber.junit.CucumberOptions;
import org.apache.tinkerpop.gremlin.features.AbstractGuiceFactory;
import org.apache.tinkerpop.gremlin.features.World;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.runner.RunWith;

/**
 * TinkerPop's Gherkin feature suite through gremlin-driver (GraphBinary) against a gtran cluster
 * of three separate processes ({@link ClusterProcesses}): every test graph spans the three nodes,
 * and each scenario talks to the next node in turn. Left out, as in the embedded run
 * (docs/compliance.md): graph-computer scenarios, TinkerGraph's insertion order; also null values
 * (the nodes' graphs do not store nulls) and the TinkerGraph test services (not registered on the
 * nodes). It is the Gherkin suite through the server: the same run against one embedded node
 * covered no line of gtran the others do not (docs/testing.md, "Suite combinations").
 *
 * <p>It takes about four minutes on two cores, so {@code mvn verify} runs it only with {@code
 * -Dgtran.test.remote-cluster=true}; {@code .ci/run} does (README, "Tests"). The graphs run
 * batched execution, the default; {@code -Dgtran.test.execution=pushed} (or {@code element}) runs
 * them in another mode.
 */
@RunWith(Cucumber.class)
@CucumberOptions(
        tags = "not @GraphComputerOnly and not @AllowNullPropertyValues and not @InsertionOrderingRequired and not @TinkerServiceRegistry",
        glue = {"org.apache.tinkerpop.gremlin.features"},
        objectFactory = GtranRemoteClusterFeatureTest.Factory.class,
        features = {"classpath:/org/apache/tinkerpop/gremlin/test/features"},
        plugin = {"progress", "junit:target/cucumber-remote-cluster.xml"})
public class GtranRemoteClusterFeatureTest {
    @BeforeClass
    public static void startCluster() {
        org.junit.Assume.assumeTrue("the remote Gherkin run against three processes runs with -Dgtran.test.remote-cluster=true"
                + " (.ci/run sets it)", Boolean.getBoolean("gtran.test.remote-cluster"));
        GtranRemoteWorld.clusterNodes = ClusterProcesses.start(3);
    }

    @AfterClass
    public static void stopCluster() {
        if (GtranRemoteWorld.clusterNodes != null) {
            GtranRemoteWorld.clusterNodes.close();
            GtranRemoteWorld.clusterNodes = null;
        }
    }

    public static final class Factory extends AbstractGuiceFactory {
        public Factory() {
            super(Guice.createInjector(Stage.PRODUCTION, CucumberModules.createScenarioModule(), new AbstractModule() {
                @Override
                protected void configure() {
                    bind(World.class).to(GtranRemoteWorld.class);
                }
            }));
        }
    }
}
