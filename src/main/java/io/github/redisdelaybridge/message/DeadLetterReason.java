package io.github.redisdelaybridge.message;

/**
 * Stable reason codes carried in the {@code x-dead-letter-reason} header. Codes are part of the public
 * contract: consumers of the dead-letter channel may branch on them, so they never change meaning.
 */
public enum DeadLetterReason {
    /** Neither x-delay nor x-deliver-at. */
    MISSING_DELAY("missing-delay"),
    /** Both x-delay and x-deliver-at. */
    CONFLICTING_DELAY("conflicting-delay"),
    /** x-delay or x-deliver-at that is not a valid non-negative value. */
    INVALID_DELAY("invalid-delay"),
    /** Due further in the future than the configured maximum delay. */
    DELAY_TOO_LONG("delay-too-long"),
    /** No x-target, and the inbound topic or queue has no default target. */
    MISSING_TARGET("missing-target"),
    /** x-target that does not follow the target syntax, or names a broker this bridge does not serve. */
    INVALID_TARGET("invalid-target"),
    /** x-target that the allow-list refuses, or one that would loop back into an inbound topic. */
    FORBIDDEN_TARGET("forbidden-target"),
    /** x-message-id that is empty, too long or not UTF-8. */
    INVALID_MESSAGE_ID("invalid-message-id"),
    /** A control message with an unknown x-control action, or without the x-message-id of the message it controls. */
    INVALID_CONTROL("invalid-control"),
    /**
     * An x-group that is empty, longer than 256 bytes, not UTF-8 text, holds a control character, is not a string (a typed
     * RabbitMQ value), or comes more than once.
     */
    INVALID_GROUP("invalid-group"),
    /**
     * An x-message-id that a pending or in-flight message already has, with a different payload: not a copy of it (that
     * would be dropped as a duplicate), so neither dropped nor allowed to replace it.
     */
    DUPLICATE_ID("duplicate-id"),
    /**
     * An {@code x-control: replace} whose message is not pending (in flight, delivered, cancelled, a dead letter, or not
     * known): the replacement was not stored, and the message stands as it was.
     */
    NOT_REPLACED("not-replaced"),
    /** Body, key and headers together larger than the configured maximum. */
    PAYLOAD_TOO_LARGE("payload-too-large"),
    /** The target broker refused the message on every attempt. */
    PUBLISH_FAILED("publish-failed"),
    /** A message the bridge could not read for any other reason (the detail says why; please report it). */
    INVALID_MESSAGE("invalid-message"),
    /** A stored record this bridge cannot read (written by an incompatible version, or damaged). */
    CORRUPT_ENVELOPE("corrupt-envelope"),
    /** A due message whose payload is gone from Redis (evicted under a maxmemory-policy other than noeviction, or deleted). */
    PAYLOAD_MISSING("payload-missing"),
    /** Later than its target pattern's maximum lateness ({@code bridge.targets.<name>.max-lateness-ms}) when the bridge took it. */
    EXPIRED("expired");

    private final String code;

    DeadLetterReason(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }

    public static DeadLetterReason fromCode(String code) {
        for (DeadLetterReason reason : values()) {
            if (reason.code.equals(code)) {
                return reason;
            }
        }
        throw new IllegalArgumentException("unknown dead-letter reason " + code);
    }
}
