package io.gtran.rdma.disni;

import com.ibm.disni.util.MemBuf;
import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.SVCPostSend;
import com.ibm.disni.verbs.impl.NatIbvSendWR;
import com.ibm.disni.verbs.impl.NatPostSendCall;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Makes DiSNI 2.0 post RDMA atomics correctly.
 *
 * <p>DiSNI 2.0 has the opcodes {@code IBV_WR_ATOMIC_CMP_AND_SWP} and {@code IBV_WR_ATOMIC_FETCH_AND_ADD}
 * and an {@link IbvSendWR.Atomic} part, but its serializer ({@code NatIbvSendWR.writeBack}) writes
 * only the {@code wr.rdma} member of the native {@code struct ibv_send_wr} union (remote_addr at
 * byte 40, rkey at 48). For an atomic the union is laid out differently (LP64 Linux, rdma-core):
 * <pre>
 *  40              48              56              64       68
 *  +---------------+---------------+---------------+--------+
 *  | remote_addr   | compare_add   | swap          | rkey   |     wr.atomic
 *  +---------------+---------------+---------------+--------+
 *  | remote_addr   | rkey | (pad)  |                              wr.rdma (what DiSNI writes)
 * </pre>
 * so the operands and the rkey would never reach the NIC. After DiSNI has serialized the work
 * requests into the stateful call's native command buffer, {@link #apply} writes the atomic member
 * there, exactly as DiSNI's own {@code SVCPostSend} modifiers write their fields. The command
 * buffer is a private field of {@code NatPostSendCall}, reached by reflection (DiSNI is on the
 * class path, so its packages are open to us).
 */
final class AtomicWorkRequests {
    static final int REMOTE_ADDR_OFFSET = 40;
    static final int COMPARE_ADD_OFFSET = 48;
    static final int SWAP_OFFSET = 56;
    static final int RKEY_OFFSET = 64;
    static final int ATOMIC_END = RKEY_OFFSET + Integer.BYTES;

    private static final Field COMMAND_BUFFER;
    private static final String UNSUPPORTED;

    static {
        Field field = null;
        String problem = null;
        try {
            field = NatPostSendCall.class.getDeclaredField("cmd");
            field.setAccessible(true);
            if (field.getType() != MemBuf.class) {
                problem = "NatPostSendCall.cmd has type " + field.getType().getName();
                field = null;
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            problem = e.toString();
        }
        COMMAND_BUFFER = field;
        UNSUPPORTED = problem;
    }

    private AtomicWorkRequests() {
    }

    /**
     * Throws unless atomics can be patched in: the DiSNI classes look as expected and the native
     * {@code struct ibv_send_wr} (as libdisni measured it) holds the atomic member.
     *
     * @throws IllegalStateException naming what does not match
     */
    static void requireSupported() {
        if (UNSUPPORTED != null) {
            throw new IllegalStateException("this DiSNI version cannot be patched to post RDMA atomics (DiSNI 2.0"
                    + " expected): " + UNSUPPORTED);
        }
        if (NatIbvSendWR.CSIZE < ATOMIC_END) {
            throw new IllegalStateException("native struct ibv_send_wr is smaller than expected: size="
                    + NatIbvSendWR.CSIZE + ", needed=" + ATOMIC_END);
        }
    }

    /** Whether {@code opcode} is an atomic that needs {@link #apply}. */
    static boolean isAtomic(int opcode) {
        return opcode == IbvSendWR.IBV_WR_ATOMIC_CMP_AND_SWP || opcode == IbvSendWR.IBV_WR_ATOMIC_FETCH_AND_ADD;
    }

    /**
     * Writes {@code request}'s {@link IbvSendWR#getAtomic() atomic} member into work request
     * {@code index} of {@code call}, which DiSNI built from the same list.
     *
     * @throws IOException if {@code index} is not a work request of {@code call}
     */
    static void apply(SVCPostSend call, int index, IbvSendWR request) throws IOException {
        NatIbvSendWR serialized = (NatIbvSendWR) call.getWrMod(index);
        ByteBuffer command = commandBuffer(call);
        int base = serialized.getBufPosition();
        IbvSendWR.Atomic atomic = request.getAtomic();
        command.putLong(base + REMOTE_ADDR_OFFSET, atomic.getRemote_addr())
                .putLong(base + COMPARE_ADD_OFFSET, atomic.getCompare_add())
                .putLong(base + SWAP_OFFSET, atomic.getSwap())
                .putInt(base + RKEY_OFFSET, atomic.getRkey());
    }

    /** The native command buffer behind {@code call}, as a native-order view. */
    static ByteBuffer commandBuffer(SVCPostSend call) {
        try {
            MemBuf memBuf = (MemBuf) COMMAND_BUFFER.get(call);
            if (memBuf == null) {
                throw new IllegalStateException("post-send call already freed");
            }
            return memBuf.getBuffer().duplicate().order(ByteOrder.nativeOrder());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot reach DiSNI's command buffer: " + e, e);
        }
    }
}
