package io.gtran.core.suites;

import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import com.google.inject.Stage;
import io.cucumber.guice.CucumberModules;
import io.cucumber.junit.Cucumber;
import io.cucumber.junit.CucumberOptions;
import org.apache.tinkerpop.gremlin.features.AbstractGuiceFactory;
import org.apache.tinkerpop.gremlin.features.World;
import org.junit.runner.RunWith;

/**
 * TinkerPop's Gherkin feature suite against a graph on a 3-node in-JVM cluster at serializable
 * isolation, pushed execution, vertices spread over the members ({@link GtranWorld.Cluster}).
 * Excluded tags: as
 * {@link GtranFeatureTest}.
 */
@RunWith(Cucumber.class)
@CucumberOptions(
        tags = GtranFeatureTest.EXCLUDED,
        glue = {"org.apache.tinkerpop.gremlin.features"},
        objectFactory = GtranClusterFeatureTest.Factory.class,
        features = {"classpath:/org/apache/tinkerpop/gremlin/test/features"},
        plugin = {"progress", "junit:target/cucumber-cluster-sr.xml"})
public class GtranClusterFeatureTest {
    public static final class Factory extends AbstractGuiceFactory {
        public Factory() {
            super(Guice.createInjector(Stage.PRODUCTION, CucumberModules.createScenarioModule(), new AbstractModule() {
                @Override
                protected void configure() {
                    bind(World.class).to(GtranWorld.Cluster.class);
                }
            }));
        }
    }
}
