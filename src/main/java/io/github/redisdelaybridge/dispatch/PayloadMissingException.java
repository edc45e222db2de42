package io.github.redisdelaybridge.dispatch;

import io.github.redisdelaybridge.store.dispatch.ClaimedMessage;
import java.util.HexFormat;

/**
 * A claimed message whose payload is missing from Redis: the due set still named it, the payloads hash no longer
 * held it (evicted under a maxmemory-policy other than noeviction, or deleted by hand). Nothing is left to publish.
 */
final class PayloadMissingException extends RuntimeException {

    PayloadMissingException(ClaimedMessage message) {
        super(detail(message));
    }

    static String detail(ClaimedMessage message) {
        return "the message was due at " + message.dueAt() + " but its payload is missing from Redis (evicted under a maxmemory-policy"
                + " other than noeviction, or deleted); stored member " + HexFormat.of().formatHex(message.member());
    }
}
