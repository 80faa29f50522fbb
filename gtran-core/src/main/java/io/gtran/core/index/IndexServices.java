package io.gtran.core.index;

import io.gtran.core.StartService;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Element;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.service.ServiceRegistry;
import org.apache.tinkerpop.gremlin.structure.util.CloseableIterator;

/**
 * Index management through {@code call()}, so that every Gremlin driver can create, list and drop
 * property indexes: {@code gtran.index.create}, {@code gtran.index.list} and {@code gtran.index.drop}.
 * Parameters and results are plain strings and maps (never {@link Indexes.Type} or another gtran
 * class), which GraphBinary and GraphSON carry to every driver. Each result describes one index as
 * {@code {kind: 'vertex'|'edge', key: ..., type: 'hash'|'ordered'}}.
 *
 * <p>Index DDL is immediate, not transactional: see {@link Indexes#create} and {@link Indexes#drop}.
 */
public final class IndexServices {
    static final String CREATE = "gtran.index.create";
    static final String LIST = "gtran.index.list";
    static final String DROP = "gtran.index.drop";

    private static final String KIND = "kind";
    private static final String KEY = "key";
    private static final String TYPE = "type";

    private IndexServices() {
    }

    /** Registers the services in {@code registry}, answered by {@code indexes}. */
    public static void register(ServiceRegistry registry, Indexes indexes) {
        registry.registerService(new IndexService(CREATE, Map.of(
                KEY, "the property key to index (required)",
                TYPE, "'hash' (equality, within) or 'ordered' (also ranges); default 'hash'",
                KIND, "'vertex' or 'edge'; default 'vertex'"), params -> {
            Class<? extends Element> kind = kind(params);
            String key = key(params);
            Indexes.Type type = type(params);
            indexes.create(kind, key, type);
            return List.of(describe(kind, key, type));
        }));
        registry.registerService(new IndexService(LIST, Map.of(
                KIND, "'vertex' or 'edge'; default both"), params -> {
            List<Map<String, String>> result = new ArrayList<>();
            for (Class<? extends Element> kind : List.of(Vertex.class, Edge.class)) {
                if (params.get(KIND) == null || kind(params) == kind) {
                    indexes.indexed(kind).forEach((key, type) -> result.add(describe(kind, key, Indexes.Type.of(type))));
                }
            }
            return result;
        }));
        registry.registerService(new IndexService(DROP, Map.of(
                KEY, "the indexed property key (required)",
                KIND, "'vertex' or 'edge'; default 'vertex'"), params -> {
            Class<? extends Element> kind = kind(params);
            String key = key(params);
            String type = indexes.indexed(kind).get(key);
            if (type == null || !indexes.drop(kind, key)) {
                throw new IllegalArgumentException("no " + kindName(kind) + " index to drop: key=" + key);
            }
            return List.of(describe(kind, key, Indexes.Type.of(type)));
        }));
    }

    static Map<String, String> describe(Class<? extends Element> kind, String key, Indexes.Type type) {
        Map<String, String> index = new LinkedHashMap<>();
        index.put(KIND, kindName(kind));
        index.put(KEY, key);
        index.put(TYPE, type.toString());
        return index;
    }

    private static String kindName(Class<? extends Element> kind) {
        return kind == Edge.class ? "edge" : "vertex";
    }

    private static Class<? extends Element> kind(Map<?, ?> params) {
        Object kind = params.get(KIND);
        if (kind == null || "vertex".equalsIgnoreCase(kind.toString())) {
            return Vertex.class;
        }
        if ("edge".equalsIgnoreCase(kind.toString())) {
            return Edge.class;
        }
        throw new IllegalArgumentException("parameter kind must be 'vertex' or 'edge': kind=" + kind);
    }

    private static String key(Map<?, ?> params) {
        Object key = params.get(KEY);
        if (!(key instanceof String s) || s.isEmpty()) {
            throw new IllegalArgumentException("parameter key is required, a non-empty property key string: key=" + key);
        }
        return s;
    }

    private static Indexes.Type type(Map<?, ?> params) {
        Object type = params.get(TYPE);
        return type == null ? Indexes.Type.HASH : Indexes.Type.of(type.toString());
    }

    /** What a service does with its checked parameters. */
    private interface Action {
        List<Map<String, String>> run(Map<?, ?> params);
    }

    /** A start service ({@code g.call(name, params)}) that refuses parameters it does not know. */
    private static final class IndexService extends StartService<Map<String, String>> {
        private final Action action;

        /** Service {@code name}, taking the parameters {@code described} names. */
        IndexService(String name, Map<String, String> described, Action action) {
            super(name, described);
            this.action = action;
        }

        @Override
        public CloseableIterator<Map<String, String>> execute(ServiceCallContext ctx, Map params) {
            refuseUnknown(params, param -> "label".equals(param) ? " (an index covers its key over every label)" : "");
            Iterator<Map<String, String>> result = action.run(params).iterator();
            return CloseableIterator.of(result);
        }
    }
}
