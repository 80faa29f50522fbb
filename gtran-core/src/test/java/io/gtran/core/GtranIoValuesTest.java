package io.gtran.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every property value type docs/tinkerpop.md lists, through every io() format that can hold it:
 * GraphSON and Gryo hold them all; GraphML only booleans, ints, longs, floats, doubles and strings.
 */
class GtranIoValuesTest {
    private static final Set<String> GRAPHML_TYPES = Set.of("Boolean", "Integer", "Long", "Float", "Double", "String");
    private final TestGraphs graphs = new TestGraphs();
    @TempDir
    Path dir;

    @AfterEach
    void close() throws Exception {
        graphs.close();
    }

    static List<Object> values() {
        return List.of((byte) 7, (short) 300, 70_000, 1L << 40, 1.5f, 2.25d, true, 'x', "marko",
                new byte[] {1, 2, 3}, new ArrayList<>(List.of(1, "two")), new LinkedHashSet<>(List.of("a", "b")),
                new LinkedHashMap<>(Map.of("k", 1)), new Date(1_700_000_000_000L),
                UUID.fromString("1b4e28ba-2fa1-11d2-883f-0016d3cca427"),
                new BigInteger("123456789012345678901234567890"), new BigDecimal("12345.678901234567890"),
                OffsetDateTime.of(2026, 11, 25, 14, 30, 0, 0, ZoneOffset.ofHours(2)),
                ZonedDateTime.of(2026, 11, 25, 14, 30, 0, 0, ZoneId.of("Europe/Paris")),
                LocalDate.of(2026, 11, 25), LocalDateTime.of(2026, 11, 25, 14, 30), Instant.ofEpochSecond(1_700_000_000L),
                Duration.ofSeconds(90));
    }

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (Object value : values()) {
            String type = value instanceof byte[] ? "byte[]" : value.getClass().getSimpleName();
            cases.add(Arguments.of("graph.json", type, value));
            cases.add(Arguments.of("graph.kryo", type, value));
            if (GRAPHML_TYPES.contains(type)) {
                cases.add(Arguments.of("graph.xml", type, value));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{1} through {0}")
    @MethodSource("cases")
    void roundTrips(String file, String type, Object value) {
        String path = dir.resolve(file).toString();
        GtranGraph source = graphs.openWith();
        GraphTraversalSource g = source.traversal();
        g.addV("thing").property("v", value).iterate();
        source.tx().commit();
        assertSame(value, g.V().values("v").next(), "stored");
        source.tx().rollback();
        g.io(path).write().iterate();

        GtranGraph target = graphs.openWith();
        GraphTraversalSource h = target.traversal();
        h.io(path).read().iterate();
        assertSame(value, h.V().values("v").next(), "read back from " + file);
        target.tx().rollback();
    }

    private static void assertSame(Object expected, Object actual, String what) {
        if (expected instanceof byte[] bytes) {
            assertArrayEquals(bytes, (byte[]) actual, what);
        } else if (expected instanceof List || expected instanceof Set || expected instanceof Map) {
            assertEquals(expected, actual, what); // GraphSON reads a list back as a LinkedList
        } else {
            assertEquals(expected, actual, what);
            assertEquals(expected.getClass(), actual.getClass(), what + ": type");
        }
    }
}
