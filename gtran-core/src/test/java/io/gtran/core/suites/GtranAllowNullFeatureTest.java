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
 * The Gherkin scenarios that need null property values, against a gtran graph that
 * stores them ({@code gtran.allow-null-property-values=true}).
 */
@RunWith(Cucumber.class)
@CucumberOptions(
        tags = "@AllowNullPropertyValues",
        glue = {"org.apache.tinkerpop.gremlin.features"},
        objectFactory = GtranAllowNullFeatureTest.Factory.class,
        features = {"classpath:/org/apache/tinkerpop/gremlin/test/features"},
        plugin = {"progress", "junit:target/cucumber-null.xml"})
public class GtranAllowNullFeatureTest {
    public static final class Factory extends AbstractGuiceFactory {
        public Factory() {
            super(Guice.createInjector(Stage.PRODUCTION, CucumberModules.createScenarioModule(), new AbstractModule() {
                @Override
                protected void configure() {
                    bind(World.class).to(GtranWorld.AllowNull.class);
                }
            }));
        }
    }
}
