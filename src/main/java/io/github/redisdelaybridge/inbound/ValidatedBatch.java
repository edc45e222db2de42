package io.github.redisdelaybridge.inbound;

import java.util.List;

/** A batch after validation, still carrying how to acknowledge it upstream. */
public record ValidatedBatch(List<ValidatedMessage> messages, UpstreamAcknowledgement acknowledgement) {
}
