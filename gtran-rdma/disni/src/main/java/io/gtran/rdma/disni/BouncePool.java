package io.gtran.rdma.disni;

import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvPd;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registered local buffers for work requests: the NIC reads the data of an RDMA WRITE or SEND from
 * one and places the result of an RDMA READ or atomic into one. Two arenas are registered once:
 * {@link #WORD_SLOTS} 8-byte words (long operations) and {@link #FRAME_SLOTS} frame-sized slots
 * (frames and small bulk transfers). A larger transfer, or one that finds its arena empty, gets a
 * buffer registered for it alone and deregistered on release. Thread-safe.
 */
final class BouncePool implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BouncePool.class);

    static final int WORD_BYTES = Long.BYTES;
    static final int WORD_SLOTS = 4096;
    static final int FRAME_SLOTS = 512;

    /** Where a buffer is registered; {@code handle} is what {@link Registrar#deregister} needs. */
    record Registration(long address, int lkey, Object handle) {
    }

    /** Registers memory with the NIC (a protection domain in production, a fake in tests). */
    interface Registrar {
        Registration register(ByteBuffer buffer) throws IOException;

        void deregister(Registration registration) throws IOException;
    }

    /** Registers buffers in {@code pd} for local write (the NIC writes READ and atomic results into them). */
    static Registrar registrar(IbvPd pd) {
        return new Registrar() {
            @Override
            public Registration register(ByteBuffer buffer) throws IOException {
                IbvMr mr = pd.regMr(buffer, IbvMr.IBV_ACCESS_LOCAL_WRITE).execute().free().getMr();
                return new Registration(mr.getAddr(), mr.getLkey(), mr);
            }

            @Override
            public void deregister(Registration registration) throws IOException {
                ((IbvMr) registration.handle()).deregMr().execute().free();
            }
        };
    }

    /** One local buffer: {@link #buffer} (native order, position 0) at NIC address {@link #address}. */
    final class Bounce {
        final ByteBuffer buffer;
        final long address;
        final int lkey;
        private final ConcurrentLinkedQueue<Bounce> home; // null: registered for this use only
        private final Registration own;

        private Bounce(ByteBuffer buffer, long address, int lkey, ConcurrentLinkedQueue<Bounce> home,
                       Registration own) {
            this.buffer = buffer;
            this.address = address;
            this.lkey = lkey;
            this.home = home;
            this.own = own;
        }

        /** Returns the buffer; call once, after the NIC is done with it. */
        void release() {
            if (home != null) {
                home.add(this);
            } else {
                deregisterQuietly(own);
            }
        }
    }

    private final Registrar registrar;
    private final int frameBytes;
    private final Registration words;
    private final Registration frames;
    private final ConcurrentLinkedQueue<Bounce> freeWords = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Bounce> freeFrames = new ConcurrentLinkedQueue<>();

    /** Allocates and registers both arenas. */
    BouncePool(Registrar registrar, int frameBytes) throws IOException {
        this.registrar = registrar;
        this.frameBytes = frameBytes;
        this.words = carve(WORD_BYTES, WORD_SLOTS, freeWords);
        Registration frameArena;
        try {
            frameArena = carve(frameBytes, FRAME_SLOTS, freeFrames);
        } catch (IOException e) {
            deregisterQuietly(words);
            throw e;
        }
        this.frames = frameArena;
    }

    /**
     * A registered buffer of at least {@code length} bytes.
     *
     * @throws IOException if a buffer had to be registered and the NIC refused (for example the
     *     locked-memory limit)
     */
    Bounce acquire(int length) throws IOException {
        Bounce bounce = null;
        if (length <= WORD_BYTES) {
            bounce = freeWords.poll();
        }
        if (bounce == null && length <= frameBytes) {
            bounce = freeFrames.poll();
        }
        if (bounce != null) {
            return bounce;
        }
        ByteBuffer buffer = ByteBuffer.allocateDirect(Math.max(length, 1) + 7).alignedSlice(Long.BYTES)
                .order(ByteOrder.nativeOrder());
        Registration registration = registrar.register(buffer);
        return new Bounce(buffer, registration.address(), registration.lkey(), null, registration);
    }

    /** Free slots of the word and frame arenas, for diagnostics. */
    String describe() {
        return "words=" + freeWords.size() + "/" + WORD_SLOTS + ", frames=" + freeFrames.size() + "/" + FRAME_SLOTS;
    }

    /** Deregisters both arenas; call after every queue pair that used them is destroyed. */
    @Override
    public void close() {
        deregisterQuietly(words);
        deregisterQuietly(frames);
    }

    private Registration carve(int slotBytes, int slots, ConcurrentLinkedQueue<Bounce> free) throws IOException {
        ByteBuffer arena = ByteBuffer.allocateDirect(slotBytes * slots + 7).alignedSlice(Long.BYTES)
                .limit(slotBytes * slots).slice().order(ByteOrder.nativeOrder());
        Registration registration = registrar.register(arena);
        for (int i = 0; i < slots; i++) {
            ByteBuffer slot = arena.slice(i * slotBytes, slotBytes).order(ByteOrder.nativeOrder());
            free.add(new Bounce(slot, registration.address() + (long) i * slotBytes, registration.lkey(), free, null));
        }
        return registration;
    }

    private void deregisterQuietly(Registration registration) {
        try {
            registrar.deregister(registration);
        } catch (IOException | RuntimeException e) {
            LOG.warn("could not deregister a bounce buffer: address={}", registration.address(), e);
        }
    }
}
