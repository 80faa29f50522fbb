package io.gtran.txn.durable;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * The format of one snapshot file (docs/durability.md, "Snapshots"): a header (magic, version,
 * the directory's identity), records, each as its length, its CRC-32C and its bytes, then a
 * trailer (an end mark, the record count, the log index and term the snapshot covers, its cut,
 * the trailer's CRC-32C, and a closing magic). A file is read only whole: a bad checksum, a
 * missing trailer or a count that differs is an error naming the file and the byte.
 */
final class SnapshotFile {
    private static final byte[] MAGIC = "GTRANSNP".getBytes(UTF_8);
    private static final byte[] END_MAGIC = "GTRANEND".getBytes(UTF_8);
    private static final int VERSION = 1;
    /** Where the length of a record would be: the trailer follows. */
    private static final int END_MARK = -1;

    /** What a whole snapshot file says about itself. */
    record Trailer(long records, long index, long term, long cut) {
    }

    private SnapshotFile() {
    }

    /** Writes records to a new file; {@link #finish} forces it. Not thread-safe. */
    static final class Writer implements AutoCloseable {
        private final Path path;
        private final FileChannel channel;
        private final DataOutputStream out;
        private final CRC32C crc = new CRC32C();
        private long records;
        private long bytes;

        Writer(Path path, String identity) throws IOException {
            this.path = path;
            this.channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            OutputStream stream = Channels.newOutputStream(channel);
            this.out = new DataOutputStream(new BufferedOutputStream(stream, 1 << 16));
            byte[] who = identity.getBytes(UTF_8);
            out.write(MAGIC);
            out.writeInt(VERSION);
            out.writeInt(who.length);
            out.write(who);
        }

        void record(byte[] record) throws IOException {
            crc.reset();
            crc.update(record);
            out.writeInt(record.length);
            out.writeInt((int) crc.getValue());
            out.write(record);
            records++;
            bytes += 8 + record.length;
        }

        long records() {
            return records;
        }

        long recordBytes() {
            return bytes;
        }

        /** Writes the trailer and forces the file to disk. */
        void finish(long index, long term, long cut) throws IOException {
            out.writeInt(END_MARK);
            byte[] fields = trailerFields(records, index, term, cut);
            crc.reset();
            crc.update(fields);
            out.write(fields);
            out.writeInt((int) crc.getValue());
            out.write(END_MAGIC);
            out.flush();
            channel.force(true);
        }

        @Override
        public void close() throws IOException {
            out.close();
        }

        Path path() {
            return path;
        }
    }

    private static byte[] trailerFields(long records, long index, long term, long cut) {
        return java.nio.ByteBuffer.allocate(32).putLong(records).putLong(index).putLong(term).putLong(cut).array();
    }

    /** What a snapshot's records go to as they are read. */
    interface Records {
        void record(byte[] bytes);
    }

    /**
     * Reads the file at {@code path}, handing each record to {@code records} as it is read, and
     * returns its trailer once the whole file checked out.
     *
     * @throws IllegalStateException naming the file, the byte and what is wrong if it is not a
     *     whole snapshot of {@code identity}
     */
    static Trailer read(Path path, String identity, Records records) {
        try (InputStream stream = new BufferedInputStream(java.nio.file.Files.newInputStream(path), 1 << 16);
             CountingInput counted = new CountingInput(stream);
             DataInputStream in = new DataInputStream(counted)) {
            byte[] magic = in.readNBytes(MAGIC.length);
            if (!Arrays.equals(magic, MAGIC)) {
                throw bad(path, 0, "not a gtran snapshot (no magic)");
            }
            int version = in.readInt();
            if (version != VERSION) {
                throw bad(path, 8, "version " + version + ", expected " + VERSION);
            }
            String who = new String(readBytes(in, path, counted), UTF_8);
            if (!who.equals(identity)) {
                throw bad(path, 12, "the snapshot of '" + who + "', not of '" + identity + "'");
            }
            CRC32C crc = new CRC32C();
            long count = 0;
            while (true) {
                long at = counted.position;
                int length = in.readInt();
                if (length == END_MARK) {
                    break;
                }
                int expected = in.readInt();
                if (length < 0 || length > PartitionLog.MAX_RECORD_BYTES) {
                    throw bad(path, at, "record " + count + " has length " + length);
                }
                byte[] record = in.readNBytes(length);
                if (record.length != length) {
                    throw bad(path, at, "record " + count + " ends early");
                }
                crc.reset();
                crc.update(record);
                if ((int) crc.getValue() != expected) {
                    throw bad(path, at, "record " + count + " fails its checksum");
                }
                records.record(record);
                count++;
            }
            long at = counted.position;
            byte[] fields = in.readNBytes(32);
            int expected = in.readInt();
            byte[] end = in.readNBytes(END_MAGIC.length);
            crc.reset();
            crc.update(fields);
            if (fields.length != 32 || (int) crc.getValue() != expected || !Arrays.equals(end, END_MAGIC)) {
                throw bad(path, at, "the trailer is torn or corrupt");
            }
            if (in.read() != -1) {
                throw bad(path, counted.position, "bytes after the trailer");
            }
            java.nio.ByteBuffer trailer = java.nio.ByteBuffer.wrap(fields);
            Trailer result = new Trailer(trailer.getLong(), trailer.getLong(), trailer.getLong(), trailer.getLong());
            if (result.records() != count) {
                throw bad(path, at, "the trailer counts " + result.records() + " records, the file has " + count);
            }
            return result;
        } catch (EOFException e) {
            throw new IllegalStateException("snapshot " + path + " ends early: no trailer", e);
        } catch (IOException e) {
            throw new IllegalStateException("snapshot " + path + " cannot be read: " + e, e);
        }
    }

    private static byte[] readBytes(DataInputStream in, Path path, CountingInput counted) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > 4096) {
            throw bad(path, counted.position - 4, "an identity of length " + length);
        }
        return in.readNBytes(length);
    }

    private static IllegalStateException bad(Path path, long at, String what) {
        return new IllegalStateException("snapshot " + path + " at byte " + at + ": " + what
                + "; a published snapshot is forced before its rename, so no crash leaves one like this: restore the"
                + " directory from a backup");
    }

    /** Counts the bytes read through it, for error messages. */
    private static final class CountingInput extends java.io.FilterInputStream {
        long position;

        CountingInput(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                position++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                position += n;
            }
            return n;
        }
    }
}
