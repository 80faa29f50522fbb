package io.gtran.core.process.traversal.step;

import java.io.File;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.Traverser;
import org.apache.tinkerpop.gremlin.process.traversal.step.sideEffect.IoStep;
import org.apache.tinkerpop.gremlin.structure.Graph;

/**
 * TinkerPop's {@code io(file)} step made safe for every format (GraphML, GraphSON, Gryo), put in
 * place of {@link IoStep} by {@link GtranIoStrategy}.
 *
 * <ul>
 *   <li>write: the graph goes to a temporary file beside the target, which is moved over the
 *       target (atomically where the file system can) only once the writer has finished. A
 *       writer that fails half-way leaves the old file, or none, and no temporary file.
 *   <li>read: an empty file is refused, and a reader that fails (a truncated or corrupt file)
 *       fails with an {@link IllegalStateException} naming the file, after the calling thread's
 *       transaction is rolled back, so nothing of the file is imported (as long as the file is
 *       smaller than the reader's batch size: TinkerPop's readers commit every batch).
 * </ul>
 */
public final class GtranIoStep<S> extends IoStep<S> {

    public GtranIoStep(Traversal.Admin<?, ?> traversal, String file) {
        super(traversal, file);
    }

    @Override
    protected Traverser.Admin<S> write(File file) {
        Path target = file.toPath().toAbsolutePath();
        Path temp;
        try {
            // the temporary file keeps the target's name at its end, so its extension still names the format
            temp = Files.createTempFile(target.getParent(), ".gtran-", "-" + target.getFileName());
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException(String.format("Could not write file %s from graph: no temporary file beside it (%s)", file, e), e);
        }
        try {
            Traverser.Admin<S> result = super.write(temp.toFile());
            move(temp, target);
            return result;
        } catch (IOException | RuntimeException e) {
            deleteQuietly(temp, e);
            if (e instanceof IllegalStateException ise && ise.getMessage() != null && ise.getMessage().contains(file.toString())) {
                throw ise;
            }
            throw new IllegalStateException(String.format("Could not write file %s from graph: %s", file, e), e);
        }
    }

    @Override
    protected Traverser.Admin<S> read(File file) {
        if (file.isFile() && file.length() == 0) {
            throw new IllegalStateException(String.format("Could not read file %s into graph: the file is empty", file));
        }
        Graph graph = (Graph) traversal.getGraph().get();
        try {
            return super.read(file);
        } catch (RuntimeException e) {
            if (graph.features().graph().supportsTransactions() && graph.tx().isOpen()) {
                graph.tx().rollback(); // nothing of a file that could not be read is imported
            }
            if (e instanceof IllegalStateException && e.getMessage() != null && e.getMessage().contains(file.toString())) {
                throw e;
            }
            throw new IllegalStateException(String.format("Could not read file %s into graph: %s", file, e), e);
        }
    }

    private static void move(Path temp, Path target) throws IOException {
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING); // the file system cannot: the best it offers
        }
    }

    private static void deleteQuietly(Path temp, Exception cause) {
        try {
            Files.deleteIfExists(temp);
        } catch (IOException e) {
            cause.addSuppressed(e);
        }
    }
}
