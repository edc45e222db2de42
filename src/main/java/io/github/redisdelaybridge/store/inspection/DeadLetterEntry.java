package io.github.redisdelaybridge.store.inspection;

import java.nio.charset.StandardCharsets;

/**
 * A dead letter as listed ({@code listDeadLetters.lua}): no body, no headers.
 *
 * @param deadAt   when it was dead-lettered (epoch ms, Redis clock)
 * @param size     bytes of its stored record
 * @param reason   its reason code, or "" if the record is unreadable
 * @param attempts failed delivery attempts before it was dead-lettered
 * @param target   the target it was meant for, or "" when it never had a valid one
 * @param slot     the slot it is stored in
 */
public record DeadLetterEntry(String messageId, long deadAt, long size, String reason, int attempts, String target, int slot)
        implements Listed {

    @Override
    public ListPosition position() {
        return new ListPosition(deadAt, messageId.getBytes(StandardCharsets.UTF_8), slot);
    }
}
