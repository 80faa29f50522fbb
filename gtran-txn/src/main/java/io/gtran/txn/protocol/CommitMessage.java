package io.gtran.txn.protocol;

import java.util.ArrayList;
import java.util.List;

/**
 * The messages of the commit protocol (docs/cluster-transactions.md, "Commit"), on a node's
 * mailbox ({@link NodeMailbox}), and their one encoding: a type byte ({@link Family#COMMIT}'s
 * first plus the order of {@link Type}), the transaction id, then the fields of the type. Each
 * names the transaction it is about; a {@link Bundle} carries several messages, and names its first's.
 */
public sealed interface CommitMessage {
    /** The transaction the message is about. */
    long txn();

    /** What each message is, by its first byte on the wire. */
    enum Type {
        VALIDATE, VOTE, RECOVER, REPORT, DECIDE, ACK, FORGOTTEN, BUNDLE
    }

    Type type();

    /** Coordinator to participant: vote on committing {@code txn} at {@code commitTime}; {@code participants} are all of them. */
    record Validate(long txn, long commitTime, int[] participants) implements CommitMessage {
        @Override
        public Type type() {
            return Type.VALIDATE;
        }
    }

    /** Participant to coordinator: its vote. */
    record VoteOf(long txn, Vote vote) implements CommitMessage {
        @Override
        public Type type() {
            return Type.VOTE;
        }
    }

    /**
     * Recovery to a participant: fence {@code txn} and report what it holds; {@code participants}
     * are all of them; {@code commitTime} the one VALIDATE named (0 if none reached the sender).
     */
    record Recover(long txn, long commitTime, int[] participants) implements CommitMessage {
        @Override
        public Type type() {
            return Type.RECOVER;
        }
    }

    /** A participant's answer to RECOVER: its vote and the decision it holds, each null if none. */
    record Report(long txn, Vote vote, Outcome decision) implements CommitMessage {
        @Override
        public Type type() {
            return Type.REPORT;
        }
    }

    /**
     * The answer to RECOVER of a participant that holds no part of {@code txn} and has seen a later
     * transaction in its slot: it forgot a decided part, or the transaction never reached it.
     */
    record Forgotten(long txn) implements CommitMessage {
        @Override
        public Type type() {
            return Type.FORGOTTEN;
        }
    }

    /** The decision, and the commit time it stamps. */
    record Decide(long txn, Outcome outcome, long commitTime) implements CommitMessage {
        @Override
        public Type type() {
            return Type.DECIDE;
        }
    }

    /** A participant applied the decision. */
    record Ack(long txn) implements CommitMessage {
        @Override
        public Type type() {
            return Type.ACK;
        }
    }

    /**
     * Messages that waited to travel together (docs/cluster-transactions.md, "Bundles"): handled one
     * by one as if each had come alone. Not empty, and never holding a bundle.
     */
    record Bundle(List<CommitMessage> messages) implements CommitMessage {
        public Bundle {
            messages = List.copyOf(messages);
            if (messages.isEmpty()) {
                throw new IllegalArgumentException("an empty bundle");
            }
            for (CommitMessage m : messages) {
                if (m instanceof Bundle) {
                    throw new IllegalArgumentException("a bundle in a bundle");
                }
            }
        }

        @Override
        public long txn() {
            return messages.get(0).txn();
        }

        @Override
        public Type type() {
            return Type.BUNDLE;
        }
    }

    /** The bytes of {@code message}. */
    static byte[] encode(CommitMessage message) {
        Wire.Writer w = new Wire.Writer().putByte(Family.COMMIT.base() + message.type().ordinal()).putLong(message.txn());
        if (message instanceof Validate m) {
            w.putLong(m.commitTime()).putParticipants(m.participants());
        } else if (message instanceof VoteOf m) {
            w.putByte(m.vote().ordinal());
        } else if (message instanceof Recover m) {
            w.putLong(m.commitTime()).putParticipants(m.participants());
        } else if (message instanceof Report m) {
            w.putByte(m.vote() == null ? 0 : 1 + m.vote().ordinal()).putByte(m.decision() == null ? 0 : 1 + m.decision().ordinal());
        } else if (message instanceof Decide m) {
            w.putByte(m.outcome().ordinal()).putLong(m.commitTime());
        } else if (message instanceof Bundle m) {
            w.putInt(m.messages().size());
            for (CommitMessage inner : m.messages()) {
                w.putBytes(encode(inner));
            }
        }
        return w.bytes();
    }

    /**
     * The message {@code bytes} encode.
     *
     * @throws IllegalArgumentException if they are not a commit message (an unknown type, a field missing)
     */
    static CommitMessage decode(byte[] bytes) {
        try {
            Wire.Reader in = new Wire.Reader(bytes);
            Type type = Type.values()[in.getByte() - Family.COMMIT.base()];
            long txn = in.getLong();
            return switch (type) {
                case VALIDATE -> new Validate(txn, in.getLong(), in.getParticipants());
                case VOTE -> new VoteOf(txn, Vote.values()[in.getByte()]);
                case RECOVER -> new Recover(txn, in.getLong(), in.getParticipants());
                case REPORT -> {
                    int vote = in.getByte();
                    int decision = in.getByte();
                    yield new Report(txn, vote == 0 ? null : Vote.values()[vote - 1], decision == 0 ? null : Outcome.values()[decision - 1]);
                }
                case DECIDE -> new Decide(txn, Outcome.values()[in.getByte()], in.getLong());
                case ACK -> new Ack(txn);
                case FORGOTTEN -> new Forgotten(txn);
                case BUNDLE -> {
                    int count = in.getInt();
                    if (count < 1 || count > bytes.length) {
                        throw new IllegalArgumentException("a bundle of " + count + " messages");
                    }
                    List<CommitMessage> messages = new ArrayList<>(count);
                    for (int i = 0; i < count; i++) {
                        byte[] one = in.getBytes();
                        if (one.length > 0 && one[0] == Family.COMMIT.base() + Type.BUNDLE.ordinal()) {
                            // looked at before decoding: bundles in bundles would recurse as deep as the message is long
                            throw new IllegalArgumentException("a bundle in a bundle");
                        }
                        messages.add(decode(one));
                    }
                    yield new Bundle(messages);
                }
            };
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a commit message (" + bytes.length + " bytes): " + e, e);
        }
    }
}
