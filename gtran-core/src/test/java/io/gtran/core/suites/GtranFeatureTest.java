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
 * TinkerPop's Gherkin feature suite against gtran at serializable isolation. Excluded tags and
 * why: docs/compliance.md.
 */
@RunWith(Cucumber.class)
@CucumberOptions(
        tags = GtranFeatureTest.EXCLUDED,
        glue = {"org.apache.tinkerpop.gremlin.features"},
        objectFactory = GtranFeatureTest.Factory.class,
        features = {"classpath:/org/apache/tinkerpop/gremlin/test/features"},
        plugin = {"progress", "junit:target/cucumber-sr.xml"})
public class GtranFeatureTest {
    /**
     * GraphComputerOnly: gtran has no graph computer. InsertionOrderingRequired: edges are kept in
     * neighbour-id order. AllowNullPropertyValues: run by GtranAllowNullFeatureTest.
     */
    static final String EXCLUDED = "not @GraphComputerOnly and not @AllowNullPropertyValues and not @InsertionOrderingRequired";

    public static final class Factory extends AbstractGuiceFactory {
        public Factory() {
            super(Guice.createInjector(Stage.PRODUCTION, CucumberModules.createScenarioModule(), new AbstractModule() {
                @Override
                protected void configure() {
                    bind(World.class).to(GtranWorld.class);
                }
            }));
        }
    }
}
