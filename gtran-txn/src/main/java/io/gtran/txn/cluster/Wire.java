package io.gtran.txn.cluster;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

/** The byte layout of commit messages: big-endian longs, a participant list as a count and 2-byte node ids. */
final class Wire {
    private Wire() {
    }

    static final class Writer {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream(32);

        Writer putByte(int value) {
            out.write(value);
            return this;
        }

        Writer putLong(long value) {
            for (int shift = 56; shift >= 0; shift -= 8) {
                out.write((int) (value >>> shift));
            }
            return this;
        }

        Writer putParticipants(int[] nodes) {
            putShort(nodes.length);
            for (int n : nodes) {
                putShort(n);
            }
            return this;
        }

        private void putShort(int value) {
            out.write(value >>> 8);
            out.write(value);
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }

    static final class Reader {
        private final ByteBuffer in;

        Reader(byte[] bytes) {
            this.in = ByteBuffer.wrap(bytes);
        }

        int getByte() {
            return in.get() & 0xFF;
        }

        long getLong() {
            return in.getLong();
        }

        int[] getParticipants() {
            int count = in.getShort() & 0xFFFF;
            int[] nodes = new int[count];
            for (int i = 0; i < count; i++) {
                nodes[i] = in.getShort() & 0xFFFF;
            }
            return nodes;
        }
    }
}
