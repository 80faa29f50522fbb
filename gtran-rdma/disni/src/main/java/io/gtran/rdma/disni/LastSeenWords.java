package io.gtran.rdma.disni;

/**
 * The last value a region handle saw in a few of its words, as the first guess of a long write's
 * compare-and-swap loop: a word usually holds what this node last read or wrote there, so the first
 * swap usually succeeds and the write takes one round trip. A small direct-mapped table, racy on
 * purpose: a stale or mixed-up entry is only a wrong guess, which costs one more round trip.
 */
final class LastSeenWords {
    /** Entries in the table; a power of two. */
    static final int ENTRIES = 64;

    private final long[] offsets = new long[ENTRIES];
    private final long[] values = new long[ENTRIES];

    LastSeenWords() {
        java.util.Arrays.fill(offsets, -1L);
    }

    /** The value last seen at {@code offset} (8-byte aligned), or 0 if none is remembered. */
    long guess(long offset) {
        int entry = entry(offset);
        long value = values[entry];
        return offsets[entry] == offset ? value : 0L;
    }

    /** Remembers that the word at {@code offset} held {@code value}. */
    void saw(long offset, long value) {
        int entry = entry(offset);
        values[entry] = value;
        offsets[entry] = offset;
    }

    private static int entry(long offset) {
        return (int) (offset >>> 3) & (ENTRIES - 1);
    }
}
