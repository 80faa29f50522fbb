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
 * TinkerPop's Gherkin feature suite through gremlin-driver (GraphSON 3) against an embedded
 * gtran node. Left out, as in the embedded run (docs/compliance.md): graph-computer scenarios,
 * TinkerGraph's insertion order; also null values (the node's graphs do not store nulls) and the
 * TinkerGraph test services (not registered on the node).
 */
@RunWith(Cucumber.class)
@CucumberOptions(
        tags = "not @GraphComputerOnly and not @AllowNullPropertyValues and not @InsertionOrderingRequired and not @TinkerServiceRegistry",
        glue = {"org.apache.tinkerpop.gremlin.features"},
        objectFactory = GtranRemoteGraphSONFeatureTest.Factory.class,
        features = {"classpath:/org/apache/tinkerpop/gremlin/test/features"},
        plugin = {"progress", "junit:target/cucumber-remote-graphson.xml"})
public class GtranRemoteGraphSONFeatureTest {
    @BeforeClass
    public static void startNode() {
        GtranRemoteWorld.node = TestNode.start();
    }

    @AfterClass
    public static void stopNode() {
        GtranRemoteWorld.node.close();
    }

    public static final class Factory extends AbstractGuiceFactory {
        public Factory() {
            super(Guice.createInjector(Stage.PRODUCTION, CucumberModules.createScenarioModule(), new AbstractModule() {
                @Override
                protected void configure() {
                    bind(World.class).to(GtranRemoteWorld.GraphSON.class);
                }
            }));
        }
    }
}
