package io.gtran.lbv;

/**
 * Query mixes of G-Tran's evaluation (§6.4): the share of read queries (R, T); the rest are write
 * queries (C, U, D). Within reads and within writes every query is equally likely.
 */
public enum Workload {
    /** Read-Only: R and T queries only. */
    RO(1.0),
    /** Read-Intensive: 80% read, 20% write. */
    RI(0.8),
    /** Write-Intensive: 20% read, 80% write. */
    WI(0.2),
    /** The 50/50 mix G-Tran's abort-rate figure uses. */
    MIX(0.5);

    private final double readShare;

    Workload(double readShare) {
        this.readShare = readShare;
    }

    public double readShare() {
        return readShare;
    }
}
