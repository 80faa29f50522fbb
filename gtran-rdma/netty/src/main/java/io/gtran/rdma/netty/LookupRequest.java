package io.gtran.rdma.netty;

import io.gtran.rdma.RegionAccessException;
import io.gtran.rdma.UnknownRegionException;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;

/** A LOOKUP of a region by name; completes with a handle bound to the incarnation that answered. */
final class LookupRequest extends Request {
    private final NettyFabric fabric;
    private final int node;
    private final String name;
    final CompletableFuture<RemoteRegion> future = new CompletableFuture<>();

    /** @param name a region name of at most {@link BodyDescriptor#MAX_REGION_NAME_BYTES} UTF-8 bytes */
    LookupRequest(NettyFabric fabric, int node, String name) {
        super(0, FrameCodec.lookup(ByteBufAllocator.DEFAULT, 0, name.getBytes(StandardCharsets.UTF_8)));
        this.fabric = fabric;
        this.node = node;
        this.name = name;
    }

    @Override
    byte replyType() {
        return FrameDescriptor.LOOKUP_REPLY;
    }

    @Override
    void complete(Frame reply, long serverIncarnation) {
        FrameCodec.LookupReply found = FrameCodec.readLookupReply(reply.body());
        if (found.found()) {
            future.complete(new RemoteRegion(fabric, node, name, found.size(), found.regionId(), serverIncarnation));
        } else {
            future.completeExceptionally(new UnknownRegionException("unknown region: node=" + node + ", name=" + name));
        }
    }

    @Override
    void fail(String reason, String address) {
        future.completeExceptionally(new RegionAccessException(reason + ": node=" + node + ", region=" + name
                + ", address=" + address));
    }

    @Override
    boolean isDone() {
        return future.isDone();
    }
}
