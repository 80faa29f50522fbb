package io.gtran.rdma.disni;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.ibm.disni.util.MemoryAllocation;
import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.IbvSge;
import com.ibm.disni.verbs.SVCPostSend;
import com.ibm.disni.verbs.impl.NatIbvSendWR;
import com.ibm.disni.verbs.impl.NatPostSendCall;
import java.nio.ByteBuffer;
import java.util.LinkedList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The atomic patch against DiSNI 2.0's real serializer: a {@link NatPostSendCall} is built without a
 * queue pair or native library (its constructor only serializes into a direct buffer), and the bytes
 * it would hand to {@code ibv_post_send} are read back at the offsets of {@code struct ibv_send_wr}.
 */
class AtomicWorkRequestsTest {
    private static final long REMOTE = 0x7f00_0000_1000L;
    private static final int RKEY = 0x1234_5678;

    @Test
    void diSniAloneLeavesTheAtomicOperandsOut() {
        List<IbvSendWR> requests = List.of(atomic(IbvSendWR.IBV_WR_ATOMIC_CMP_AND_SWP, 41, 42));
        SVCPostSend call = serialize(requests);
        ByteBuffer command = AtomicWorkRequests.commandBuffer(call);
        int base = ((NatIbvSendWR) getWrMod(call, 0)).getBufPosition();
        assertEquals(REMOTE, command.getLong(base + AtomicWorkRequests.REMOTE_ADDR_OFFSET));
        assertEquals(RKEY, command.getInt(base + AtomicWorkRequests.COMPARE_ADD_OFFSET),
                "DiSNI writes wr.rdma.rkey where wr.atomic.compare_add lives");
        call.free();
    }

    @Test
    void applyWritesTheAtomicMemberOfEveryAtomicRequestAndNothingElse() {
        IbvSendWR read = request(IbvSendWR.IBV_WR_RDMA_READ);
        read.getRdma().setRemote_addr(REMOTE + 64);
        read.getRdma().setRkey(RKEY);
        List<IbvSendWR> requests = List.of(read, atomic(IbvSendWR.IBV_WR_ATOMIC_CMP_AND_SWP, -1L, Long.MIN_VALUE),
                atomic(IbvSendWR.IBV_WR_ATOMIC_FETCH_AND_ADD, 7, 0));
        AtomicWorkRequests.requireSupported();
        SVCPostSend call = serialize(requests);
        for (int i = 0; i < requests.size(); i++) {
            if (AtomicWorkRequests.isAtomic(requests.get(i).getOpcode())) {
                try {
                    AtomicWorkRequests.apply(call, i, requests.get(i));
                } catch (java.io.IOException e) {
                    throw new AssertionError(e);
                }
            }
        }
        ByteBuffer command = AtomicWorkRequests.commandBuffer(call);
        int readBase = ((NatIbvSendWR) getWrMod(call, 0)).getBufPosition();
        assertEquals(REMOTE + 64, command.getLong(readBase + AtomicWorkRequests.REMOTE_ADDR_OFFSET));
        assertEquals(RKEY, command.getInt(readBase + AtomicWorkRequests.COMPARE_ADD_OFFSET), "the READ keeps wr.rdma.rkey");
        assertEquals(IbvSendWR.IBV_WR_RDMA_READ, command.getInt(readBase + 28), "opcode");
        int casBase = ((NatIbvSendWR) getWrMod(call, 1)).getBufPosition();
        assertEquals(IbvSendWR.IBV_WR_ATOMIC_CMP_AND_SWP, command.getInt(casBase + 28), "opcode");
        assertEquals(REMOTE, command.getLong(casBase + AtomicWorkRequests.REMOTE_ADDR_OFFSET));
        assertEquals(-1L, command.getLong(casBase + AtomicWorkRequests.COMPARE_ADD_OFFSET));
        assertEquals(Long.MIN_VALUE, command.getLong(casBase + AtomicWorkRequests.SWAP_OFFSET));
        assertEquals(RKEY, command.getInt(casBase + AtomicWorkRequests.RKEY_OFFSET));
        int addBase = ((NatIbvSendWR) getWrMod(call, 2)).getBufPosition();
        assertEquals(7, command.getLong(addBase + AtomicWorkRequests.COMPARE_ADD_OFFSET));
        assertEquals(RKEY, command.getInt(addBase + AtomicWorkRequests.RKEY_OFFSET));
        assertEquals(NatIbvSendWR.CSIZE, addBase - casBase, "requests are laid out one struct apart");
        call.free();
    }

    private static SVCPostSend serialize(List<IbvSendWR> requests) {
        return new NatPostSendCall(null, null, MemoryAllocation.getInstance(), null, requests);
    }

    private static SVCPostSend.SendWRMod getWrMod(SVCPostSend call, int index) {
        try {
            return call.getWrMod(index);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private static IbvSendWR atomic(int opcode, long compareAdd, long swap) {
        IbvSendWR request = request(opcode);
        request.getRdma().setRemote_addr(REMOTE);
        request.getRdma().setRkey(RKEY);
        request.getAtomic().setRemote_addr(REMOTE);
        request.getAtomic().setRkey(RKEY);
        request.getAtomic().setCompare_add(compareAdd);
        request.getAtomic().setSwap(swap);
        return request;
    }

    private static IbvSendWR request(int opcode) {
        IbvSge sge = new IbvSge();
        sge.setAddr(0x5000);
        sge.setLength(8);
        sge.setLkey(0x99);
        LinkedList<IbvSge> sges = new LinkedList<>();
        sges.add(sge);
        IbvSendWR request = new IbvSendWR();
        request.setSg_list(sges);
        request.setOpcode(opcode);
        request.setSend_flags(IbvSendWR.IBV_SEND_SIGNALED);
        return request;
    }
}
