package io.gtran.txn.durable;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** {@code gtran.durability=none}, or no directory: nothing is logged, nothing survives the process. */
public final class NoCommitLog implements CommitLog {
    public static final NoCommitLog INSTANCE = new NoCommitLog();

    private NoCommitLog() {
    }

    @Override
    public boolean logs() {
        return false;
    }

    @Override
    public void commit(RedoRecord.Commit record) {
    }

    @Override
    public void vote(RedoRecord.Vote vote) {
    }

    @Override
    public CompletableFuture<Void> decision(RedoRecord.Decision decision) {
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public void released(long txn) {
    }

    @Override
    public void sequenceCeiling(long ceiling) {
    }

    @Override
    public void indexChanged(RedoRecord.IndexDefinition change) {
    }

    @Override
    public Optional<SnapshotTaker.Taken> snapshot(GraphCut cut) {
        throw new IllegalStateException("nothing is logged (no " + Durability.DIRECTORY + ", or " + Durability.DURABILITY
                + "=none): there is nothing to take a snapshot of");
    }

    @Override
    public long snapshotIndex() {
        return -1;
    }

    @Override
    public long snapshotTime() {
        return -1;
    }

    @Override
    public long sinceSnapshot() {
        return 0;
    }

    @Override
    public long lastIndex() {
        return -1;
    }

    @Override
    public long durableIndex() {
        return -1;
    }

    @Override
    public String mode() {
        return "none";
    }

    @Override
    public String describe() {
        return "durability=none";
    }

    @Override
    public void close() {
    }
}
