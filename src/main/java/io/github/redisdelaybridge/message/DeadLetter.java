package io.github.redisdelaybridge.message;

import java.util.List;
import java.util.Map;

/**
 * A message the bridge will not deliver, with why. It keeps the producer's key, headers (including
 * the delay headers, so the cause is visible) and body bytes unchanged.
 *
 * @param target the target it was meant for, or "" when it never had a valid one
 */
public record DeadLetter(
        String messageId,
        DeadLetterReason reason,
        String detail,
        String origin,
        String target,
        int attempts,
        byte[] key,
        List<MessageHeader> headers,
        Map<String, String> properties,
        byte[] body) {
}
