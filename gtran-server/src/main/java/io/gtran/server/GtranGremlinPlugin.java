package io.gtran.server;

import io.gtran.core.GtranGraph;
import io.gtran.core.TransactionAbortedException;
import io.gtran.core.index.Indexes;
import io.gtran.txn.common.Isolation;
import org.apache.tinkerpop.gremlin.jsr223.AbstractGremlinPlugin;
import org.apache.tinkerpop.gremlin.jsr223.DefaultImportCustomizer;
import org.apache.tinkerpop.gremlin.jsr223.ImportCustomizer;

/**
 * gtran's Gremlin plugin ({@code gtran.graph}): imports gtran's user-facing classes into Gremlin
 * scripts, in Gremlin Server and in the Gremlin Console ({@code :plugin use gtran.graph}).
 * Registered for {@link java.util.ServiceLoader}.
 */
public final class GtranGremlinPlugin extends AbstractGremlinPlugin {
    /** The plugin's name, in the {@code gtran} namespace. */
    public static final String NAME = "gtran.graph";

    private static final ImportCustomizer IMPORTS = DefaultImportCustomizer.build()
            .addClassImports(GtranGraph.class, Indexes.class, Indexes.Type.class, TransactionAbortedException.class, Isolation.class)
            .create();

    private static final GtranGremlinPlugin INSTANCE = new GtranGremlinPlugin();

    public GtranGremlinPlugin() {
        super(NAME, IMPORTS);
    }

    /** What Gremlin Server's YAML and the console call to get the plugin. */
    public static GtranGremlinPlugin instance() {
        return INSTANCE;
    }
}
