package io.github.redisdelaybridge.message;

import org.slf4j.MDC;

/**
 * The message a log line is about, in the logging context (MDC): JSON logs ({@code bridge.log.format=json}) carry its id
 * and target as fields of their own, so that a log search finds every line about one message without parsing text.
 * Use in try-with-resources around the lines about one message; the previous values come back on close, so that a
 * thread that logs about several messages in turn never mixes them up.
 */
public final class MessageLogContext implements AutoCloseable {

    public static final String MESSAGE_ID = "messageId";
    public static final String TARGET = "target";

    private final String previousId;
    private final String previousTarget;

    private MessageLogContext(String messageId, String target) {
        previousId = MDC.get(MESSAGE_ID);
        previousTarget = MDC.get(TARGET);
        put(MESSAGE_ID, messageId);
        put(TARGET, target);
    }

    /** The message's id and target (either may be null or empty: a message rejected before its target was read). */
    public static MessageLogContext of(String messageId, String target) {
        return new MessageLogContext(messageId, target);
    }

    @Override
    public void close() {
        put(MESSAGE_ID, previousId);
        put(TARGET, previousTarget);
    }

    private static void put(String key, String value) {
        if (value == null || value.isEmpty()) {
            MDC.remove(key);
        } else {
            MDC.put(key, value);
        }
    }
}
