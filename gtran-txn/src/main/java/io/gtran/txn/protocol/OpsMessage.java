package io.gtran.txn.protocol;

import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.Isolation;
import java.util.ArrayList;
import java.util.List;

/**
 * The messages that carry a transaction's {@link Op operations}, a pushed chain's traversers
 * and the name look-ups between members (docs/cluster-transactions.md, "Execution" and "Pushed
 * chains"), {@link Family#OPS} on a node's mailbox ({@link NodeMailbox}), and their one encoding: a
 * type byte, the request number (an answer names the request it answers), then the type's fields.
 */
public sealed interface OpsMessage {
    int REQUEST = 0;
    int REPLY = 1;
    int NAME = 5;
    int NAME_ACK = 6;
    int FORWARD = 7;
    int RESULT = 8;

    /** The request this message is, or answers. */
    long request();

    /** The two fields every operations message begins with. */
    record Header(int type, long request) {
    }

    /** Reads the {@link Header} off the front of {@code in}. */
    static Header headerOf(Wire.Reader in) {
        return new Header(in.getByte(), in.getLong());
    }

    /**
     * Coordinator to owner: run {@code op} ({@link Op#encode}) as operation {@code seq} of {@code
     * txn}. {@code committed} carries the sender's recent commits the owner took part in, as pairs
     * of id and commit time (docs/cluster-transactions.md, "Decisions carried"); often empty.
     */
    record Request(long request, long txn, long beginTime, Isolation isolation, int seq, byte[] op, long[] committed)
            implements OpsMessage {
        public Request {
            if (committed.length % 2 != 0) {
                throw new IllegalArgumentException("carried commits come in pairs of id and time, not " + committed.length + " words");
            }
        }
    }

    /** Owner to coordinator: what a request did. */
    record Reply(long request, Answer answer) implements OpsMessage {
    }

    /** To the authority for names: the id of {@code name} in dictionary {@code dictionary}, interning it if {@code create}. */
    record Name(long request, int dictionary, boolean create, String name) implements OpsMessage {
    }

    /** The authority's answer: the id, or why not ({@code failure} not null: the exception's class name, then {@code reason}). */
    record NameAck(long request, int id, String failure, String reason) implements OpsMessage {
    }

    /** A chain's forward or result taken by its receiver, or refused ({@code refusal} says why; null: taken). */
    record ChainAck(long request, String refusal) implements OpsMessage {
    }

    /**
     * Traversers of chain run {@code chainId} of {@code txn} for the receiver to take through
     * {@code chain} from stage {@code stage}: its vertices, each with its bulk.
     */
    record Traversers(long forward, long txn, long beginTime, Isolation isolation, long chainId, Chain chain, int stage,
            long[] vertices, long[] bulks) {
    }

    /** What a node did with one forward: whether the part there has written or pre-read, and the forwards it sent on. */
    record ChainReport(int node, long forward, boolean wrote, boolean preReads, long[] spawned, int[] spawnedNodes) {
    }

    /** Traversers sent on to their owner, with reports for the coordinator carried along when there is nothing else to send. */
    record Forward(long request, Traversers traversers, List<ChainReport> carried) implements OpsMessage {
    }

    /**
     * A node's report to the chain's coordinator: its results (vertices and bulks), the vertices
     * it does not see, and why the run failed there ({@code failure}: a {@link Conflict}, {@link
     * Failed} or {@link Refused}; null if it did not).
     */
    record Result(long request, long chainId, Answer failure, List<ChainReport> reports, long[] vertices, long[] bulks,
            long[] unseen) implements OpsMessage {
    }

    /**
     * What an operation did at its owner, and what the transaction's part there holds after it
     * ({@code wrote}: it has written there; {@code preReads}: it read a validating writer's version
     * there, so a read-only end must wait for that writer).
     */
    sealed interface Answer {
        boolean wrote();

        boolean preReads();
    }

    /** The operation ran; {@code result} is what its {@link Op.Type} answers. */
    record Done(boolean wrote, boolean preReads, byte[] result) implements Answer {
    }

    /** It met a conflict: the part aborted. */
    record Conflict(boolean wrote, boolean preReads, ConflictKind kind, long other, String on, String detail) implements Answer {
    }

    /** An element it needed is not seen there. */
    record NotFound(boolean wrote, boolean preReads, String message, long element) implements Answer {
    }

    /** It failed otherwise: the exception's class name and message. */
    record Failed(boolean wrote, boolean preReads, String type, String message) implements Answer {
    }

    /** The owner took no operation of the transaction (lost, fenced, finished, closing): why. */
    record Refused(String reason) implements Answer {
        public boolean wrote() {
            return false;
        }

        public boolean preReads() {
            return false;
        }
    }

    /** Whether an operations message with first byte {@code type} is an operation's or a chain's (not a name's). */
    static boolean isOperation(int type) {
        return type == REQUEST || type == REPLY || type == FORWARD || type == RESULT;
    }

    static byte[] encode(OpsMessage message) {
        if (message instanceof Request r) {
            return new Wire.Writer().putByte(REQUEST).putLong(r.request()).putLong(r.txn()).putLong(r.beginTime())
                    .putByte(r.isolation().ordinal()).putInt(r.seq()).putBytes(r.op()).putLongs(r.committed()).bytes();
        }
        if (message instanceof Reply r) {
            Wire.Writer w = new Wire.Writer().putByte(REPLY).putLong(r.request());
            putAnswer(w, r.answer());
            return w.bytes();
        }
        if (message instanceof ChainAck a) {
            return new Wire.Writer().putByte(REPLY).putLong(a.request()).putString(a.refusal()).bytes();
        }
        if (message instanceof Forward f) {
            Traversers h = f.traversers();
            Wire.Writer w = new Wire.Writer().putByte(FORWARD).putLong(f.request()).putLong(h.forward()).putLong(h.txn())
                    .putLong(h.beginTime()).putByte(h.isolation().ordinal()).putLong(h.chainId());
            h.chain().write(w);
            w.putInt(h.stage()).putLongs(h.vertices()).putLongs(h.bulks());
            putReports(w, f.carried());
            return w.bytes();
        }
        if (message instanceof Result r) {
            Wire.Writer w = new Wire.Writer().putByte(RESULT).putLong(r.request()).putLong(r.chainId()).putBoolean(r.failure() != null);
            if (r.failure() != null) {
                putAnswer(w, r.failure());
            }
            putReports(w, r.reports());
            return w.putLongs(r.vertices()).putLongs(r.bulks()).putLongs(r.unseen()).bytes();
        }
        if (message instanceof Name n) {
            return new Wire.Writer().putByte(NAME).putLong(n.request()).putByte(n.dictionary()).putBoolean(n.create())
                    .putString(n.name()).bytes();
        }
        NameAck a = (NameAck) message;
        Wire.Writer w = new Wire.Writer().putByte(NAME_ACK).putLong(a.request()).putBoolean(a.failure() == null);
        return (a.failure() == null ? w.putInt(a.id()) : w.putString(a.failure()).putString(a.reason())).bytes();
    }

    /**
     * A {@link Request}, {@link Name}, {@link Forward} or {@link Result} numbered {@code request}
     * whose fields {@code in} holds next (the two header fields already read), or null for another
     * type. An answer ({@code REPLY}, {@code NAME_ACK}) is read by whoever waits for it, who knows
     * what it asked: {@link #answerOf}, {@link #nameAckOf} or {@link #chainAckOf}.
     */
    static OpsMessage decode(int type, long request, Wire.Reader in) {
        return switch (type) {
            case REQUEST -> new Request(request, in.getLong(), in.getLong(), Isolation.values()[in.getByte()], in.getInt(), in.getBytes(),
                    in.getLongs());
            case NAME -> new Name(request, in.getByte(), in.getBoolean(), in.getString());
            case FORWARD -> new Forward(request, new Traversers(in.getLong(), in.getLong(), in.getLong(),
                    Isolation.values()[in.getByte()], in.getLong(), Chain.read(in), in.getInt(), in.getLongs(), in.getLongs()), getReports(in));
            case RESULT -> {
                long chainId = in.getLong();
                Answer failure = in.getBoolean() ? answerOf(in) : null;
                yield new Result(request, chainId, failure, getReports(in), in.getLongs(), in.getLongs(), in.getLongs());
            }
            default -> null;
        };
    }

    /** The {@link NameAck} numbered {@code request}, read from {@code in} after the header. */
    static NameAck nameAckOf(long request, Wire.Reader in) {
        return in.getBoolean() ? new NameAck(request, in.getInt(), null, null) : new NameAck(request, 0, in.getString(), in.getString());
    }

    /** The {@link ChainAck} numbered {@code request}, read from {@code in} after the header. */
    static ChainAck chainAckOf(long request, Wire.Reader in) {
        return new ChainAck(request, in.getString());
    }

    private static void putReports(Wire.Writer w, List<ChainReport> reports) {
        w.putInt(reports.size());
        for (ChainReport r : reports) {
            w.putInt(r.node()).putLong(r.forward()).putBoolean(r.wrote()).putBoolean(r.preReads())
                    .putLongs(r.spawned()).putParticipants(r.spawnedNodes());
        }
    }

    private static List<ChainReport> getReports(Wire.Reader in) {
        int n = in.getInt();
        List<ChainReport> reports = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            reports.add(new ChainReport(in.getInt(), in.getLong(), in.getBoolean(), in.getBoolean(), in.getLongs(), in.getParticipants()));
        }
        return reports;
    }

    /** The first byte of an encoded {@link Answer}. */
    enum Status {
        DONE, CONFLICT, NOT_FOUND, FAILED, REFUSED
    }

    private static void putAnswer(Wire.Writer w, Answer answer) {
        if (answer instanceof Refused r) {
            w.putByte(Status.REFUSED.ordinal()).putString(r.reason());
            return;
        }
        Status status = answer instanceof Done ? Status.DONE : answer instanceof Conflict ? Status.CONFLICT
                : answer instanceof NotFound ? Status.NOT_FOUND : Status.FAILED;
        w.putByte(status.ordinal()).putBoolean(answer.wrote()).putBoolean(answer.preReads());
        if (answer instanceof Done d) {
            w.putBytes(d.result());
        } else if (answer instanceof Conflict c) {
            w.putByte(c.kind().ordinal()).putLong(c.other()).putString(c.on()).putString(c.detail());
        } else if (answer instanceof NotFound n) {
            w.putString(n.message()).putLong(n.element());
        } else {
            Failed f = (Failed) answer;
            w.putString(f.type()).putString(f.message());
        }
    }

    /** The answer a {@link Reply} carries, read from {@code in} after the header. */
    static Answer answerOf(Wire.Reader in) {
        int code = in.getByte();
        if (code >= Status.values().length) {
            throw new IllegalStateException("unknown answer status: " + code);
        }
        Status status = Status.values()[code];
        if (status == Status.REFUSED) {
            return new Refused(in.getString());
        }
        boolean wrote = in.getBoolean();
        boolean preReads = in.getBoolean();
        return switch (status) {
            case DONE -> new Done(wrote, preReads, in.getBytes());
            case CONFLICT -> new Conflict(wrote, preReads, ConflictKind.values()[in.getByte()], in.getLong(), in.getString(), in.getString());
            case NOT_FOUND -> new NotFound(wrote, preReads, in.getString(), in.getLong());
            case FAILED -> new Failed(wrote, preReads, in.getString(), in.getString());
            case REFUSED -> throw new IllegalStateException("unreachable");
        };
    }
}
