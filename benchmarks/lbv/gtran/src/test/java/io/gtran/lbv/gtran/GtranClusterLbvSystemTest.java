package io.gtran.lbv.gtran;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.lbv.LbvSystem;
import io.gtran.lbv.gremlin.GremlinSystemContract;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Gremlin system contract over gtran on three in-JVM nodes with 20 µs injected per message, so
 * every query crosses nodes and waits on the links; plus the system's own options.
 */
class GtranClusterLbvSystemTest extends GremlinSystemContract {
    @Override
    protected LbvSystem open() {
        return new GtranClusterLbvSystem(Map.of("nodes", "3", "link-latency-us", "20"));
    }

    @Test
    void queriesCrossNodesAndTheLinksDelayedThem() {
        GtranClusterLbvSystem cluster = (GtranClusterLbvSystem) reads;
        assertTrue(cluster.messages() > 0, "the contract's queries sent operation messages between the members");
        assertEquals(new io.gtran.lbv.Traffic(cluster.messages(), cluster.bytes()), reads.traffic(), "what the runner reads");
        String line = cluster.linkLine();
        assertTrue(line.startsWith("LBV_LINK nodes=3 asked_us=20 messages="), line);
        assertEquals("gtran-jvm-cluster", reads.name());
        assertEquals("serializable, 3 node(s), link latency 20 us", reads.isolation());
    }

    @Test
    void badOptionsAreRefusedNamingTheOption() {
        assertRefused("nodes=0", Map.of("nodes", "0"));
        assertRefused("nodes=17", Map.of("nodes", "17"));
        assertRefused("nodes=three", Map.of("nodes", "three"));
        assertRefused("link-latency-us=-1", Map.of("link-latency-us", "-1"));
        assertRefused("link-latency-us=20us", Map.of("link-latency-us", "20us"));
        assertRefused("gtran.cluster.nodes=0,1", Map.of("gtran.cluster.nodes", "0,1"));
        assertRefused("isolation=RC", Map.of("isolation", "RC"));
        assertRefused("unknown option", Map.of("latency", "20"));
        try (GtranClusterLbvSystem one = new GtranClusterLbvSystem(Map.of("nodes", "1", "opt", "off"))) {
            assertEquals("gtran-jvm-cluster-noopt", one.name());
            assertEquals(null, one.linkLine(), "no latency asked: no LBV_LINK line");
        }
    }

    private static void assertRefused(String part, Map<String, String> options) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new GtranClusterLbvSystem(options));
        assertTrue(e.getMessage().contains(part), e.getMessage() + " lacks " + part);
    }
}
