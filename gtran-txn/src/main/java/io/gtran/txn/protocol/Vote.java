package io.gtran.txn.protocol;

/** A participant's answer to VALIDATE; once given it never changes. */
public enum Vote {
    /** Ready to commit, unconditionally: the participant's dependencies are resolved. */
    YES,
    NO
}
