package io.gtran.bench.jmh;

import io.gtran.storage.ExternalIdMap;
import io.gtran.storage.GraphStore;
import io.gtran.storage.StoreConfig;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a graph costs to open and close, with and without user-supplied ids. TinkerPop's test
 * suites open thousands of graphs, so this per-graph cost multiplies.
 *
 * <ul>
 *   <li>{@link #openWithFirstExternalId}: open a {@link GraphStore}, add one vertex, map one
 *       external (String) id to it — the first {@link ExternalIdMap#put} creates the vertex id
 *       map's two Chronicle Maps, sized for {@code gtran.storage.external-ids.max} entries — read
 *       it back, close.</li>
 *   <li>{@link #openWithoutExternalIds}: the same without the external id, so no Chronicle Map
 *       is created; the difference is the Chronicle Map cost.</li>
 * </ul>
 *
 * <p><b>Units.</b> {@link Mode#SingleShotTime}, milliseconds per open-use-close cycle, one cycle
 * per iteration. With the default warm-up this is the cost in a warm JVM. The first Chronicle Map
 * in a JVM is much slower (class loading, code generation); measure that cold cost with fresh
 * forks and no warm-up, e.g. {@code -wi 0 -i 1 -f 5}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 10)
@Measurement(iterations = 30)
public class ExternalIdMapBenchmark extends GtranForkSettings {
    /** gtran.storage.external-ids.max: the capacity each Chronicle Map is created for. */
    @Param("10000")
    public int externalIdsMax;

    private StoreConfig config;

    @Setup(Level.Trial)
    public void setup() {
        config = StoreConfig.from(Map.of(StoreConfig.EXTERNAL_IDS_MAX, externalIdsMax));
    }

    @Benchmark
    public long openWithFirstExternalId() {
        try (GraphStore store = GraphStore.open(config)) {
            long vertex = store.addVertex(store.labels().intern("vertex"), 1L, Long.MAX_VALUE);
            ExternalIdMap ids = store.vertices().externalIds();
            if (!ids.put("v1", vertex) || ids.internalId("v1") != vertex) {
                throw new IllegalStateException("external id not mapped");
            }
            return vertex;
        }
    }

    @Benchmark
    public long openWithoutExternalIds() {
        try (GraphStore store = GraphStore.open(config)) {
            long vertex = store.addVertex(store.labels().intern("vertex"), 1L, Long.MAX_VALUE);
            if (store.vertices().externalIds().created()) {
                throw new IllegalStateException("external id maps were created without a put");
            }
            return vertex;
        }
    }
}
