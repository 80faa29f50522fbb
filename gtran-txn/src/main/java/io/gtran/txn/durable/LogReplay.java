package io.gtran.txn.durable;

/**
 * What a {@link PartitionLog} hands its records to while it opens: first the records of the
 * newest snapshot, if there is one, then {@link #snapshotRead} with the snapshot's cut, then every
 * log entry after the snapshot, in log order, all on one thread (docs/durability.md, "Snapshots").
 */
@FunctionalInterface
public interface LogReplay {
    /** Takes one record; what it throws makes the open fail. */
    void record(byte[] bytes);

    /**
     * The snapshot's records have all been handed over; {@code cut} is the value its writer gave
     * (for the graph, the snapshot's timestamp). Not called when there is no snapshot.
     */
    default void snapshotRead(long cut) {
    }
}
