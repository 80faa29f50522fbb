package io.gtran.core.io;

import org.apache.tinkerpop.gremlin.structure.io.AbstractIoRegistry;
import org.apache.tinkerpop.gremlin.structure.io.graphson.GraphSONIo;
import org.apache.tinkerpop.gremlin.structure.io.graphson.GraphSONXModuleV3;
import org.apache.tinkerpop.gremlin.structure.io.graphson.TypeInfo;
import org.apache.tinkerpop.shaded.jackson.databind.module.SimpleModule;

/**
 * The serializers gtran's property values need beyond TinkerPop's defaults, added to every
 * {@code g.io(file)} by {@link GtranIoStep}: for GraphSON 3, TinkerPop's extended module (bytes,
 * shorts, chars, big numbers, byte buffers and java.time types), without which the default mapper
 * refuses them; and {@link GtranGraphSONModule} for byte arrays. Gryo registers all of these already.
 */
public final class GtranIoRegistry extends AbstractIoRegistry {
    private static final GtranIoRegistry INSTANCE = new GtranIoRegistry();

    private GtranIoRegistry() {
        SimpleModule graphSONX = ((GraphSONXModuleV3.Builder) GraphSONXModuleV3.build()).create(false, TypeInfo.PARTIAL_TYPES);
        register(GraphSONIo.class, null, graphSONX);
        register(GraphSONIo.class, byte[].class, new GtranGraphSONModule());
    }

    public static GtranIoRegistry instance() {
        return INSTANCE;
    }
}
