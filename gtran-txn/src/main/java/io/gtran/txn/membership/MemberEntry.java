package io.gtran.txn.membership;

import io.gtran.txn.protocol.Outcome;
import io.gtran.txn.protocol.Wire;

/**
 * An entry of the membership group's log (docs/cluster-transactions.md, "Membership decided by
 * consensus"): a member lost, a member back, the outcome of a transaction whose decision a loss
 * made contested, or the clock master's lease. The {@link MemberLedger} applies an entry only if what it assumed still
 * holds when its turn comes, so a late or repeated proposal changes nothing.
 */
public sealed interface MemberEntry {
    /**
     * A change of a member's state. It names the member and the generation the proposer knew it in
     * (how many times it came back), and the proposer with its own generation.
     */
    sealed interface Change extends MemberEntry {
        int node();

        int generation();

        int by();

        int byGeneration();
    }

    /** {@code node} is lost: every member acts on its loss once this is applied, and only then. */
    record Lost(int node, int generation, int by, int byGeneration) implements Change {
    }

    /** {@code node}, lost, is back: it was re-admitted by {@code by} and may decide again. */
    record Back(int node, int generation, int by, int byGeneration) implements Change {
    }

    /**
     * {@code txn}'s outcome, proposed by its coordinator aborting it on a participant's loss, or by a
     * recovery that found every vote YES: the first applied for a transaction is its outcome.
     */
    record Decided(long txn, Outcome outcome) implements MemberEntry {
    }

    /**
     * The clock master {@code node} of {@code epoch} may issue timestamps while its time is below
     * {@code untilMicros} (on its timescale): proposed by the master, used once applied
     * (docs/cluster-transactions.md, "Time").
     */
    record Lease(int node, long epoch, long untilMicros) implements MemberEntry {
    }

    int LOST = 1;
    int BACK = 2;
    int DECIDED = 3;
    int LEASE = 4;

    /** The entry's bytes: its type, then its fields. */
    static byte[] encode(MemberEntry entry) {
        if (entry instanceof Decided d) {
            return new Wire.Writer().putByte(DECIDED).putLong(d.txn()).putByte(d.outcome().ordinal()).bytes();
        }
        if (entry instanceof Lease l) {
            return new Wire.Writer().putByte(LEASE).putInt(l.node()).putLong(l.epoch()).putLong(l.untilMicros()).bytes();
        }
        Change c = (Change) entry;
        return new Wire.Writer().putByte(entry instanceof Lost ? LOST : BACK).putInt(c.node()).putInt(c.generation())
                .putInt(c.by()).putInt(c.byGeneration()).bytes();
    }

    /**
     * The entry {@code bytes} encode.
     *
     * @throws IllegalArgumentException naming what is wrong if they are not an entry
     */
    static MemberEntry decode(byte[] bytes) {
        if (bytes.length == 0) {
            throw new IllegalArgumentException("an empty membership entry");
        }
        Wire.Reader in = new Wire.Reader(bytes);
        int type = in.getByte();
        int expected = type == DECIDED ? 10 : type == LEASE ? 21 : 17;
        if (bytes.length != expected) {
            throw new IllegalArgumentException("a membership entry of type " + type + " is " + expected + " bytes, not "
                    + bytes.length);
        }
        switch (type) {
            case LOST, BACK -> {
                int node = in.getInt();
                int generation = in.getInt();
                int by = in.getInt();
                int byGeneration = in.getInt();
                return type == LOST ? new Lost(node, generation, by, byGeneration) : new Back(node, generation, by, byGeneration);
            }
            case DECIDED -> {
                long txn = in.getLong();
                int outcome = in.getByte();
                if (outcome < 0 || outcome >= Outcome.values().length) {
                    throw new IllegalArgumentException("a membership entry names an unknown outcome " + outcome);
                }
                return new Decided(txn, Outcome.values()[outcome]);
            }
            case LEASE -> {
                return new Lease(in.getInt(), in.getLong(), in.getLong());
            }
            default -> throw new IllegalArgumentException("unknown membership entry type " + type);
        }
    }
}
