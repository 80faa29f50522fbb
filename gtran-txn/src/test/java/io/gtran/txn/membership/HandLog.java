package io.gtran.txn.membership;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A membership log driven by hand: proposals wait in {@link #proposed} (their futures in
 * {@link #answers}, answered only if the test does) until the test applies entries, in the order
 * it likes; no thread runs.
 */
public final class HandLog implements MembershipLog {
    public final List<MemberEntry> proposed = new ArrayList<>();
    public final List<CompletableFuture<Void>> answers = new ArrayList<>();
    private Consumer<MemberEntry> applier;

    @Override
    public void start(Consumer<MemberEntry> applier) {
        this.applier = applier;
    }

    @Override
    public CompletableFuture<Void> propose(MemberEntry entry) {
        proposed.add(entry);
        CompletableFuture<Void> answer = new CompletableFuture<>();
        answers.add(answer);
        return answer;
    }

    /** Applies {@code entry} as the group would once it committed it. */
    public void apply(MemberEntry entry) {
        applier.accept(entry);
    }

    @Override
    public String describe() {
        return "by hand";
    }

    @Override
    public GroupState state() {
        return GroupState.UNKNOWN;
    }

    @Override
    public void close() {
    }
}
