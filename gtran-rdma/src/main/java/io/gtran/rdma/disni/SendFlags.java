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
        int[] flags = new int[opcodes.length];
        boolean outstanding = readOrAtomicOutstanding;
        for (int i = 0; i < opcodes.length; i++) {
            if (readsOrAtomic(opcodes[i])) {
                outstanding = true; // a later WRITE or SEND could pass it
            } else if (outstanding) {
                flags[i] |= IbvSendWR.IBV_SEND_FENCE; // waits for every earlier READ and atomic
                outstanding = false;
            }
        }
        flags[opcodes.length - 1] |= IbvSendWR.IBV_SEND_SIGNALED;
        return flags;
    }

    /** Whether {@code opcode} returns data from the remote side: RDMA READ or an atomic. */
    static boolean readsOrAtomic(int opcode) {
        return opcode == IbvSendWR.IBV_WR_RDMA_READ || AtomicWorkRequests.isAtomic(opcode);
    }
}
