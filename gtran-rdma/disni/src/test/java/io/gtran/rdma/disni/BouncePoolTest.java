package io.gtran.rdma.disni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link BouncePool} against a fake registrar that records registrations. */
class BouncePoolTest {
    private static final int FRAME = 256;

    /** Hands out fake NIC addresses and remembers what is registered. */
    private static final class FakeRegistrar implements BouncePool.Registrar {
        final List<BouncePool.Registration> registered = new ArrayList<>();
        final List<BouncePool.Registration> deregistered = new ArrayList<>();
        final List<Integer> sizes = new ArrayList<>();
        long nextAddress = 0x10_0000;
        boolean refuse;

        @Override
        public BouncePool.Registration register(ByteBuffer buffer) throws IOException {
            if (refuse) {
                throw new IOException("ibv_reg_mr: Cannot allocate memory");
            }
            BouncePool.Registration registration = new BouncePool.Registration(nextAddress, registered.size() + 1, buffer);
            nextAddress += buffer.capacity() + 4096;
            registered.add(registration);
            sizes.add(buffer.capacity());
            return registration;
        }

        @Override
        public void deregister(BouncePool.Registration registration) {
            deregistered.add(registration);
        }
    }

    @Test
    void wordsAndFramesComeFromTheirArenasWithDistinctAddresses() throws IOException {
        FakeRegistrar registrar = new FakeRegistrar();
        BouncePool pool = new BouncePool(registrar, FRAME);
        assertEquals(List.of(BouncePool.WORD_BYTES * BouncePool.WORD_SLOTS, FRAME * BouncePool.FRAME_SLOTS), registrar.sizes);
        Set<Long> addresses = new HashSet<>();
        List<BouncePool.Bounce> words = new ArrayList<>();
        for (int i = 0; i < BouncePool.WORD_SLOTS; i++) {
            BouncePool.Bounce word = pool.acquire(8);
            assertEquals(registrar.registered.get(0).lkey(), word.lkey);
            assertEquals(0, word.address % 8, "8-byte aligned for atomics");
            assertTrue(addresses.add(word.address), "distinct");
            words.add(word);
        }
        BouncePool.Bounce spill = pool.acquire(8);
        assertEquals(registrar.registered.get(1).lkey(), spill.lkey, "words exhausted: a frame slot serves");
        BouncePool.Bounce frame = pool.acquire(FRAME);
        assertNotEquals(spill.address, frame.address);
        assertEquals(2, registrar.registered.size(), "no registration per use while the arenas have room");
        words.get(5).release();
        assertEquals(words.get(5).address, pool.acquire(8).address, "a released word is reused");
        pool.close();
        assertEquals(registrar.registered, registrar.deregistered);
    }

    @Test
    void largeTransfersGetTheirOwnRegistrationUntilReleased() throws IOException {
        FakeRegistrar registrar = new FakeRegistrar();
        BouncePool pool = new BouncePool(registrar, FRAME);
        BouncePool.Bounce large = pool.acquire(FRAME + 1);
        assertEquals(3, registrar.registered.size());
        assertTrue(large.buffer.capacity() >= FRAME + 1);
        assertSame(java.nio.ByteOrder.nativeOrder(), large.buffer.order());
        large.release();
        assertEquals(List.of(registrar.registered.get(2)), registrar.deregistered, "deregistered on release");
        registrar.refuse = true;
        IOException refused = assertThrows(IOException.class, () -> pool.acquire(FRAME * 2));
        assertTrue(refused.getMessage().contains("Cannot allocate memory"));
        pool.acquire(8).release(); // the arenas need no new registration
    }
}
