package io.gtran.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code g.io(file)}: writes are all or nothing, and an empty or cut-short file is refused. */
class GtranIoTest {
    private final TestGraphs graphs = new TestGraphs();
    @TempDir
    Path dir;

    @AfterEach
    void close() throws Exception {
        graphs.close();
    }

    /** A value no io() format can write: no Gryo registration, no Jackson properties. */
    static final class Unwritable implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    private GraphTraversalSource twoVertices() {
        GtranGraph graph = graphs.openWith();
        GraphTraversalSource g = graph.traversal();
        g.addV("person").property("name", "marko").iterate();
        g.addV("person").property("name", "vadas").iterate();
        graph.tx().commit();
        return g;
    }

    @ParameterizedTest
    @ValueSource(strings = {"graph.json", "graph.kryo"})
    void aWriteFailingHalfWayLeavesNoFile(String name) {
        GraphTraversalSource g = twoVertices();
        g.addV("person").property("name", "josh").property("bad", new Unwritable()).iterate();
        g.tx().commit();
        Path file = dir.resolve(name);
        assertThrows(RuntimeException.class, () -> g.io(file.toString()).write().iterate());
        assertFalse(Files.exists(file), "a failed write must leave no file");
        assertEquals(0, countFiles(), "nor a temporary file");
    }

    @ParameterizedTest
    @ValueSource(strings = {"graph.json", "graph.kryo"})
    void aWriteFailingHalfWayKeepsTheOldFile(String name) throws IOException {
        GraphTraversalSource g = twoVertices();
        Path file = dir.resolve(name);
        g.io(file.toString()).write().iterate();
        byte[] old = Files.readAllBytes(file);
        g.addV("person").property("name", "josh").property("bad", new Unwritable()).iterate();
        g.tx().commit();
        assertThrows(RuntimeException.class, () -> g.io(file.toString()).write().iterate());
        assertArrayEquals(old, Files.readAllBytes(file), "a failed write must leave the old file as it was");
        assertEquals(1, countFiles(), "and no temporary file");
    }

    @ParameterizedTest
    @ValueSource(strings = {"graph.json", "graph.kryo", "graph.xml"})
    void readingAnEmptyFileIsAnErrorNamingIt(String name) throws IOException {
        Path file = Files.createFile(dir.resolve(name));
        GraphTraversalSource g = graphs.openWith().traversal();
        Exception e = assertThrows(IllegalStateException.class, () -> g.io(file.toString()).read().iterate());
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"graph.json", "graph.kryo", "graph.xml"})
    void readingATruncatedFileIsAnErrorNamingItAndImportsNothing(String name) throws IOException {
        Path file = dir.resolve(name);
        twoVertices().io(file.toString()).write().iterate();
        byte[] whole = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(whole, whole.length - whole.length / 3));
        GtranGraph graph = graphs.openWith();
        GraphTraversalSource g = graph.traversal();
        Exception e = assertThrows(IllegalStateException.class, () -> g.io(file.toString()).read().iterate());
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
        assertEquals(0L, g.V().count().next(), "nothing of a truncated file is imported");
        graph.tx().rollback();
    }

    @ParameterizedTest
    @ValueSource(strings = {"graph.json", "graph.kryo", "graph.xml"})
    void aWrittenGraphReadsBack(String name) {
        Path file = dir.resolve(name);
        twoVertices().io(file.toString()).write().iterate();
        GtranGraph graph = graphs.openWith();
        GraphTraversalSource g = graph.traversal();
        g.io(file.toString()).read().iterate();
        assertEquals(2L, g.V().count().next());
        graph.tx().rollback();
    }

    private long countFiles() {
        try (Stream<Path> files = Files.list(dir)) {
            return files.count();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
