package io.gtran.txn.protocol;

import io.gtran.storage.EdgeDirection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Stages that traversers go through at the nodes that own their vertices, passed from node to
 * node without coming back to the coordinator between stages ({@code Transaction#runChain},
 * docs/cluster-transactions.md, "Pushed chains"): a hop to the vertices at the other end of a
 * vertex's edges, or a filter keeping vertices with one of some labels. Labels travel by name.
 * Immutable: each method returns a longer chain.
 */
public final class Chain {
    /** A stage: a hop ({@code direction} set) or a label filter ({@code direction} null). */
    public record Stage(EdgeDirection direction, String[] labels) {
        public boolean isHop() {
            return direction != null;
        }

        @Override
        public String toString() {
            return (isHop() ? direction.name().toLowerCase() : "hasLabel") + Arrays.toString(labels);
        }
    }

    private static final Chain EMPTY = new Chain(List.of());
    private final List<Stage> stages;

    private Chain(List<Stage> stages) {
        this.stages = stages;
    }

    /** The chain with no stage. */
    public static Chain empty() {
        return EMPTY;
    }

    /** This chain, then a hop along edges in {@code direction} with any of {@code edgeLabels} (none: any label). */
    public Chain hop(EdgeDirection direction, String... edgeLabels) {
        if (direction == null) {
            throw new IllegalArgumentException("a hop needs a direction");
        }
        return then(new Stage(direction, edgeLabels.clone()));
    }

    /** This chain, then a filter that keeps the vertices labelled one of {@code labels}. */
    public Chain hasLabel(String... labels) {
        if (labels.length == 0) {
            throw new IllegalArgumentException("a label filter needs at least one label");
        }
        return then(new Stage(null, labels.clone()));
    }

    private Chain then(Stage stage) {
        List<Stage> more = new ArrayList<>(stages);
        more.add(stage);
        return new Chain(List.copyOf(more));
    }

    public int size() {
        return stages.size();
    }

    public Stage stage(int index) {
        return stages.get(index);
    }

    public void write(Wire.Writer w) {
        w.putInt(stages.size());
        for (Stage s : stages) {
            w.putByte(s.isHop() ? s.direction().ordinal() + 1 : 0).putInt(s.labels().length);
            for (String label : s.labels()) {
                w.putString(label);
            }
        }
    }

    public static Chain read(Wire.Reader in) {
        int n = in.getInt();
        if (n < 0 || n > 1024) {
            throw new IllegalArgumentException("a chain of " + n + " stages");
        }
        List<Stage> stages = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int kind = in.getByte();
            String[] labels = new String[in.getInt()];
            for (int j = 0; j < labels.length; j++) {
                labels[j] = in.getString();
            }
            stages.add(new Stage(kind == 0 ? null : EdgeDirection.values()[kind - 1], labels));
        }
        return new Chain(List.copyOf(stages));
    }

    @Override
    public String toString() {
        return stages.toString();
    }

    /**
     * What a run of a chain gave: the vertices its last stage reached, each with the bulk of the
     * traversers that reached it ({@code vertices[i]}, {@code bulks[i]}), in no particular order;
     * the start vertices the transaction did not see at their owner ({@code unseen}: the caller
     * reports each as a single read would); the nodes it ran on, and the messages it sent between
     * nodes (forwards and results).
     */
    public record Outcome(long[] vertices, long[] bulks, long[] unseen, int[] nodes, int messages) {
    }
}
