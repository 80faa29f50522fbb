package io.gtran.txn.membership;

/**
 * Layout of a node's timestamp buffer: the registered region ({@value #REGION_NAME}) in which the
 * node publishes the oldest begin time of its running transactions, for every member's GC
 * watermark ({@link ClusterWatermark}). Only the owning node writes it; the others read it
 * one-sidedly.
 *
 * <pre>
 *   0                   8
 *   +-------------------+
 *   | oldest begin time |
 *   +-------------------+
 * </pre>
 *
 * The word is 0 (the region's zero fill) until the node's first GC pass publishes: a value below
 * every timestamp, so a node that has not published holds every watermark at 0.
 */
public final class TimestampBufferDescriptor {
    public static final String REGION_NAME = "gtran.txn.timestamp-buffer";
    public static final int OLDEST_BEGIN_OFFSET = 0;
    public static final int LENGTH = OLDEST_BEGIN_OFFSET + Long.BYTES;
    /** The word before the first publication. */
    public static final long UNPUBLISHED = 0L;

    private TimestampBufferDescriptor() {
    }
}
