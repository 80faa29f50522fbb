package io.gtran.rdma.disni;

import static com.ibm.disni.verbs.IbvSendWR.IBV_WR_ATOMIC_CMP_AND_SWP;
import static com.ibm.disni.verbs.IbvSendWR.IBV_WR_ATOMIC_FETCH_AND_ADD;
import static com.ibm.disni.verbs.IbvSendWR.IBV_WR_RDMA_READ;
import static com.ibm.disni.verbs.IbvSendWR.IBV_WR_RDMA_WRITE;
import static com.ibm.disni.verbs.IbvSendWR.IBV_WR_SEND;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import com.ibm.disni.verbs.IbvSendWR;
import org.junit.jupiter.api.Test;

/** Which work requests of a chain are fenced and which signalled; no device needed. */
class SendFlagsTest {
    private static final int F = IbvSendWR.IBV_SEND_FENCE;
    private static final int S = IbvSendWR.IBV_SEND_SIGNALED;

    @Test
    void aWriteAfterAReadOfTheChainIsFencedAndOnlyTheLastIsSignalled() {
        assertArrayEquals(new int[] {0, F | S}, SendFlags.of(new int[] {IBV_WR_RDMA_READ, IBV_WR_RDMA_WRITE}, false));
    }

    @Test
    void aWriteAfterAnAtomicIsFenced() {
        assertArrayEquals(new int[] {0, F, 0, F | S}, SendFlags.of(new int[] {IBV_WR_ATOMIC_CMP_AND_SWP, IBV_WR_RDMA_WRITE,
                IBV_WR_ATOMIC_FETCH_AND_ADD, IBV_WR_RDMA_WRITE}, false));
    }

    @Test
    void oneFenceCoversTheWritesThatFollowIt() {
        assertArrayEquals(new int[] {0, F, 0, 0, S}, SendFlags.of(new int[] {IBV_WR_RDMA_READ, IBV_WR_RDMA_WRITE,
                IBV_WR_RDMA_WRITE, IBV_WR_SEND, IBV_WR_RDMA_READ}, false));
    }

    @Test
    void readsAndAtomicsAfterWritesOrEachOtherAreNotFenced() {
        assertArrayEquals(new int[] {0, 0, 0, 0, S}, SendFlags.of(new int[] {IBV_WR_RDMA_WRITE, IBV_WR_RDMA_READ,
                IBV_WR_ATOMIC_CMP_AND_SWP, IBV_WR_ATOMIC_FETCH_AND_ADD, IBV_WR_RDMA_READ}, false));
        assertArrayEquals(new int[] {0, 0, S}, SendFlags.of(new int[] {IBV_WR_RDMA_WRITE, IBV_WR_RDMA_WRITE,
                IBV_WR_SEND}, false), "writes alone are never fenced");
    }

    @Test
    void aFenceMarkerFencesTheNextRequestEvenAReadIfAReadOrAtomicMayBeOutstanding() {
        int[] reads = {IBV_WR_RDMA_READ, IBV_WR_RDMA_READ, IBV_WR_RDMA_READ};
        assertArrayEquals(new int[] {0, 0, S}, SendFlags.of(reads, false), "unmarked READs go out unfenced");
        assertArrayEquals(new int[] {0, F, F | S}, SendFlags.of(reads, new boolean[] {false, true, true}, false),
                "id, fence, status, fence, id: each READ waits for the one before");
        assertArrayEquals(new int[] {F, 0, S}, SendFlags.of(reads, new boolean[] {true, false, false}, true),
                "behind a READ of an earlier chain still in flight");
        assertArrayEquals(new int[] {0, 0, S}, SendFlags.of(new int[] {IBV_WR_RDMA_WRITE, IBV_WR_RDMA_READ,
                IBV_WR_RDMA_READ}, new boolean[] {true, true, false}, false), "nothing outstanding: nothing to wait for");
        assertArrayEquals(new int[] {0, F, 0, F | S}, SendFlags.of(new int[] {IBV_WR_ATOMIC_FETCH_AND_ADD,
                IBV_WR_RDMA_WRITE, IBV_WR_RDMA_READ, IBV_WR_RDMA_WRITE}, new boolean[] {false, true, true, false}, false),
                "a marked WRITE is fenced once; the READ after it has nothing outstanding to wait for");
    }

    @Test
    void aReadOrAtomicStillOutstandingFromAnEarlierChainFencesTheFirstWrite() {
        assertArrayEquals(new int[] {F, 0, S}, SendFlags.of(new int[] {IBV_WR_RDMA_WRITE, IBV_WR_RDMA_WRITE,
                IBV_WR_RDMA_READ}, true));
        assertArrayEquals(new int[] {F | S}, SendFlags.of(new int[] {IBV_WR_SEND}, true), "a frame too");
        assertArrayEquals(new int[] {S}, SendFlags.of(new int[] {IBV_WR_ATOMIC_FETCH_AND_ADD}, true));
    }
}
