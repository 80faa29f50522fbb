package io.gtran.core;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.apache.tinkerpop.gremlin.structure.service.Service;

/**
 * A service that only starts a traversal ({@code g.call(name, params)}), as gtran's index and bulk
 * services are: its own factory, refusing to be called mid-traversal.
 *
 * @param <R> what it answers
 */
public abstract class StartService<R> implements Service.ServiceFactory<Object, R>, Service<Object, R> {
    private final String name;
    private final Map<String, String> described;

    /** A service called {@code name}, whose parameters {@code described} names and explains. */
    protected StartService(String name, Map<String, String> described) {
        this.name = name;
        this.described = Map.copyOf(described);
    }

    @Override
    public final String getName() {
        return name;
    }

    @Override
    public final Set<Type> getSupportedTypes() {
        return Set.of(Type.Start);
    }

    @Override
    public final Type getType() {
        return Type.Start;
    }

    @Override
    public final Map describeParams() {
        return described;
    }

    @Override
    public final Service<Object, R> createService(boolean isStart, Map params) {
        if (!isStart) {
            throw new UnsupportedOperationException(name + ": " + Service.Exceptions.cannotUseMidTraversal);
        }
        return this;
    }

    /**
     * Refuses a parameter this service does not describe, naming it, its value and the parameters
     * it takes; {@code hint} may add a word about the parameter refused (or return "").
     */
    protected final void refuseUnknown(Map<?, ?> params, Function<Object, String> hint) {
        for (Map.Entry<?, ?> param : params.entrySet()) {
            if (!described.containsKey(String.valueOf(param.getKey()))) {
                throw new IllegalArgumentException(name + ": unknown parameter " + param.getKey() + "=" + param.getValue()
                        + "; it takes " + new TreeSet<>(described.keySet()) + hint.apply(param.getKey()));
            }
        }
    }

    @Override
    public void close() {
    }
}
