package io.gtran.rdma.netty;

import static io.gtran.rdma.netty.OpDescriptor.ARGS_OFFSET;
import static io.gtran.rdma.netty.OpDescriptor.CAS;
import static io.gtran.rdma.netty.OpDescriptor.CODE_OFFSET;
import static io.gtran.rdma.netty.OpDescriptor.FETCH_ADD;
import static io.gtran.rdma.netty.OpDescriptor.OFFSET_OFFSET;
import static io.gtran.rdma.netty.OpDescriptor.READ;
import static io.gtran.rdma.netty.OpDescriptor.READ_LONG;
import static io.gtran.rdma.netty.OpDescriptor.REGION_ID_OFFSET;
import static io.gtran.rdma.netty.OpDescriptor.WRITE;
import static io.gtran.rdma.netty.OpDescriptor.WRITE_LONG;

import io.gtran.rdma.Fabric;
import io.gtran.rdma.spi.RegionMemory;
import io.netty.buffer.ByteBuf;

/**
 * The server side of one-sided operations: checks an {@code OPS} body ({@link OpDescriptor})
 * against the node's regions, then applies its operations, in order, straight to the
 * {@link RegionMemory}s and writes their results. Runs on the connection's I/O thread; no
 * application thread takes part, as with RDMA.
 */
final class RegionService {
    private RegionService() {
    }

    /**
     * Checks every operation of the OPS body {@code body} (reader index at its start).
     *
     * @param regions the node's regions by id
     * @return the length of the OPS_REPLY body the operations produce
     * @throws ProtocolException if an operation is malformed or out of bounds, or the reply would be too long
     */
    static int check(ByteBuf body, RegionMemory[] regions) {
        int at = body.readerIndex();
        int end = body.writerIndex();
        if (end - at < OpDescriptor.FIRST_OP_OFFSET) {
            throw new ProtocolException("truncated OPS body: bodyLength=" + (end - at));
        }
        int count = body.getInt(at + OpDescriptor.COUNT_OFFSET);
        if (count < 1 || count > (end - at) / OpDescriptor.HEADER_LENGTH) {
            throw new ProtocolException("bad OPS count: count=" + count + ", bodyLength=" + (end - at));
        }
        long replyLength = OpDescriptor.FIRST_OP_OFFSET;
        int op = at + OpDescriptor.FIRST_OP_OFFSET;
        for (int i = 0; i < count; i++) {
            if (end - op < OpDescriptor.HEADER_LENGTH) {
                throw new ProtocolException("OPS body ends inside operation " + i + ": count=" + count);
            }
            byte code = body.getByte(op + CODE_OFFSET);
            if (!OpDescriptor.isKnown(code)) {
                throw new ProtocolException("unknown operation code: op=" + i + ", code=" + code);
            }
            int argsLength = OpDescriptor.argsLength(code);
            if (end - op - ARGS_OFFSET < argsLength) {
                throw new ProtocolException("OPS body ends inside the arguments of operation " + i + ": code="
                        + OpDescriptor.name(code));
            }
            RegionMemory memory = region(regions, body.getInt(op + REGION_ID_OFFSET), i);
            long offset = body.getLong(op + OFFSET_OFFSET);
            long size = memory.size();
            int length = 0;
            if (code == READ || code == WRITE) {
                length = body.getInt(op + ARGS_OFFSET);
                if (length < 0 || length > Fabric.MAX_TRANSFER_BYTES || offset < 0 || offset > size - length) {
                    throw new ProtocolException("bulk range out of bounds: op=" + i + ", region=" + memory.name()
                            + ", offset=" + offset + ", length=" + length + ", size=" + size);
                }
                if (code == WRITE && end - op - ARGS_OFFSET - argsLength < length) {
                    throw new ProtocolException("OPS body ends inside the bytes of WRITE " + i + ": length=" + length);
                }
            } else if ((offset & 7) != 0 || offset < 0 || offset > size - Long.BYTES) {
                throw new ProtocolException("long offset misaligned or out of bounds: op=" + i + ", region="
                        + memory.name() + ", offset=" + offset + ", size=" + size);
            }
            op += OpDescriptor.opLength(code, length);
            replyLength += OpDescriptor.resultLength(code, length);
        }
        if (op != end) {
            throw new ProtocolException("OPS body has bytes after its operations: count=" + count + ", trailing="
                    + (end - op));
        }
        if (replyLength > FrameDescriptor.MAX_BODY_LENGTH) {
            throw new ProtocolException("OPS reply would be too long: replyLength=" + replyLength + ", max="
                    + FrameDescriptor.MAX_BODY_LENGTH);
        }
        return (int) replyLength;
    }

    /**
     * Applies the operations of an OPS body that {@link #check} accepted, in order, and appends
     * the OPS_REPLY body to {@code out}.
     */
    static void apply(ByteBuf body, RegionMemory[] regions, ByteBuf out) {
        int at = body.readerIndex();
        int count = body.getInt(at + OpDescriptor.COUNT_OFFSET);
        out.writeInt(count);
        int op = at + OpDescriptor.FIRST_OP_OFFSET;
        for (int i = 0; i < count; i++) {
            byte code = body.getByte(op + CODE_OFFSET);
            RegionMemory memory = regions[body.getInt(op + REGION_ID_OFFSET)];
            long offset = body.getLong(op + OFFSET_OFFSET);
            int args = op + ARGS_OFFSET;
            int length = 0;
            switch (code) {
                case READ_LONG -> out.writeLong(memory.getLongVolatile(offset));
                case WRITE_LONG -> memory.putLongVolatile(offset, body.getLong(args));
                case CAS -> out.writeByte(memory.compareAndSetLong(offset, body.getLong(args),
                        body.getLong(args + Long.BYTES)) ? 1 : 0);
                case FETCH_ADD -> out.writeLong(memory.getAndAddLong(offset, body.getLong(args)));
                case READ -> {
                    length = body.getInt(args);
                    out.writeBytes(memory.buffer().slice((int) offset, length));
                }
                case WRITE -> {
                    length = body.getInt(args);
                    body.getBytes(args + Integer.BYTES, memory.buffer().slice((int) offset, length));
                }
                default -> throw new IllegalStateException("unchecked operation code: code=" + code);
            }
            op += OpDescriptor.opLength(code, length);
        }
    }

    private static RegionMemory region(RegionMemory[] regions, int regionId, int op) {
        if (regionId < 0 || regionId >= regions.length || regions[regionId] == null) {
            throw new ProtocolException("unknown region id: op=" + op + ", regionId=" + regionId + ", regions="
                    + regions.length);
        }
        return regions[regionId];
    }
}
