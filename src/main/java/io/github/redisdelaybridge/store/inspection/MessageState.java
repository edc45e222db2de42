package io.github.redisdelaybridge.store.inspection;

/** Where a message id stands, as the admin API reports it. */
public enum MessageState {
    /** Waiting in the due set. */
    PENDING("pending"),
    /** Waiting in the due set, parked with its target (failing or paused): it can be cancelled or rescheduled like a pending one. */
    PARKED("parked"),
    /** Claimed by an instance and being published; can no longer be cancelled or rescheduled. */
    IN_FLIGHT("in-flight"),
    /** Published and acknowledged within the dedupe window (older deliveries are forgotten). */
    DELIVERED("delivered"),
    /** In the dead-letter store. */
    DEAD("dead"),
    /** Cancelled within the cancel window (before or after it arrived). */
    CANCELLED("cancelled"),
    /** Nothing known about this id. */
    UNKNOWN("unknown");

    private final String code;

    MessageState(String code) {
        this.code = code;
    }

    /** The name used in the admin API. */
    public String code() {
        return code;
    }
}
