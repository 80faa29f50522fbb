package io.gtran.storage;

/** Which adjacent edges a scan returns, seen from the scanned vertex. */
public enum EdgeDirection {
    OUT(1), IN(2), BOTH(3);

    final int mask;

    EdgeDirection(int mask) {
        this.mask = mask;
    }
}
