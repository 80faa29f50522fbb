package io.gtran.lbv;

/** LBV query categories (Lissandrini et al., PVLDB 12(4)); R and T read, C, U and D write. */
public enum Category {
    CREATE(true), READ(false), UPDATE(true), DELETE(true), TRAVERSAL(false);

    private final boolean writes;

    Category(boolean writes) {
        this.writes = writes;
    }

    /** Whether queries of this category write (C, U, D). */
    public boolean writes() {
        return writes;
    }
}
