package io.gtran.rdma.disni;

import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.IbvSge;
import java.io.IOException;
import java.util.LinkedList;

/**
 * One send-queue work request and what to do when it completes: a region operation
 * ({@link RegionOp}) or a control frame. A {@link Connection} posts items in chains; the CQ thread
 * calls {@link #succeeded} or {@link #failed}, then {@link #release}.
 */
abstract class WorkItem {
    /** The registered local buffer of this request, from {@link #prepare} until {@link #release}. */
    protected BouncePool.Bounce bounce;
    /**
     * Set by a batch on the first request on its connection after a {@code Batch.fence()}: it must
     * wait for every earlier READ and atomic of the queue pair ({@link SendFlags}). Before posting.
     */
    boolean fenceBefore;

    /** Takes the local buffer and fills it with whatever the NIC must send. */
    abstract void prepare(BouncePool pool) throws IOException;

    /** The work request; the connection sets its id and send flags. Called after {@link #prepare}. */
    abstract IbvSendWR workRequest();

    /** The request completed: read the result out of the local buffer. Runs on the CQ thread. */
    abstract void succeeded();

    /** The request failed, timed out, or its connection is gone; {@code reason} says which. Idempotent. */
    abstract void failed(String reason);

    /** Returns the local buffer; only once the NIC can no longer touch it. Idempotent. */
    final void release() {
        BouncePool.Bounce held = bounce;
        bounce = null;
        if (held != null) {
            held.release();
        }
    }

    /** A work request with one scatter/gather element: the first {@code length} bytes of the local buffer. */
    protected final IbvSendWR request(int opcode, int length) {
        IbvSge sge = new IbvSge();
        sge.setAddr(bounce.address);
        sge.setLength(length);
        sge.setLkey(bounce.lkey);
        LinkedList<IbvSge> sges = new LinkedList<>();
        sges.add(sge);
        IbvSendWR request = new IbvSendWR();
        request.setSg_list(sges); // also sets num_sge
        request.setOpcode(opcode);
        return request;
    }
}
