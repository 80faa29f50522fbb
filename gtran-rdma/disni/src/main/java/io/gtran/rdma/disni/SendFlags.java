package io.gtran.rdma.disni;

import com.ibm.disni.verbs.IbvSendWR;

/**
 * The send flags of one chain of work requests on a reliable-connected queue pair: which request
 * is signalled and which must wait behind {@code IBV_SEND_FENCE}.
 *
 * <p>Only the last request of a chain is signalled (its completion implies all earlier ones). The
 * InfiniBand ordering rules let an RDMA WRITE or a SEND be executed before an earlier RDMA READ or
 * atomic of the same queue pair has been: a read followed by a write of the same word may return the
 * new value, an atomic followed by a write may overwrite the write. Requests that return data (READ,
 * compare-and-swap, fetch-and-add) are executed in order among themselves and after earlier WRITEs,
 * so they need no fence. A fenced request waits until every earlier READ and atomic has completed;
 * after it, nothing earlier is outstanding, so only a later READ or atomic makes the next WRITE or
 * SEND need a fence again. A fence costs the pipelining of that one request, paid only where a
 * batch's order would otherwise not hold.
 *
 * <p>That READs are executed in order among themselves says when they start, not when each samples
 * memory: a responder that allows several outstanding READs is not promised to sample the owner's
 * memory in order against the owner's concurrent CPU stores. A request marked by
 * {@code Batch.fence()} is fenced too, whatever its opcode, if a READ or atomic may be outstanding
 * before it: then it samples memory only after they have completed.
 */
final class SendFlags {
    private SendFlags() {
    }

    /**
     * The flags of each request of a chain.
     *
     * @param opcodes the chain's opcodes ({@code IbvSendWR.IBV_WR_*}), in posting order; not empty
     * @param readOrAtomicOutstanding whether an earlier chain holding a READ or an atomic may not
     *     have completed yet on this queue pair
     */
    static int[] of(int[] opcodes, boolean readOrAtomicOutstanding) {
        return of(opcodes, new boolean[opcodes.length], readOrAtomicOutstanding);
    }

    /**
     * The flags of each request of a chain, some of which follow a {@code Batch.fence()}.
     *
     * @param fenceBefore for each request, whether a batch's fence precedes it (same length as {@code opcodes})
     */
    static int[] of(int[] opcodes, boolean[] fenceBefore, boolean readOrAtomicOutstanding) {
        int[] flags = new int[opcodes.length];
        boolean outstanding = readOrAtomicOutstanding;
        for (int i = 0; i < opcodes.length; i++) {
            boolean readsOrAtomic = readsOrAtomic(opcodes[i]);
            // a WRITE or SEND could pass an earlier READ or atomic; a fenced request must not start before them
            boolean fence = outstanding && (fenceBefore[i] || !readsOrAtomic);
            if (fence) {
                flags[i] |= IbvSendWR.IBV_SEND_FENCE; // waits for every earlier READ and atomic
            }
            outstanding = readsOrAtomic || outstanding && !fence;
        }
        flags[opcodes.length - 1] |= IbvSendWR.IBV_SEND_SIGNALED;
        return flags;
    }

    /** Whether {@code opcode} returns data from the remote side: RDMA READ or an atomic. */
    static boolean readsOrAtomic(int opcode) {
        return opcode == IbvSendWR.IBV_WR_RDMA_READ || AtomicWorkRequests.isAtomic(opcode);
    }
}
