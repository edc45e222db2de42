package io.github.redisdelaybridge.inbound;

import java.util.List;

/** Messages received together, and how to acknowledge them upstream once stored. */
public record InboundBatch(List<InboundMessage> messages, UpstreamAcknowledgement acknowledgement) {
}
