package io.github.redisdelaybridge.store.ingest;

/** What a cancel did ({@code cancel.lua}). Only {@link #WITHDRAWN} and {@link #RECORDED} change anything. */
public enum CancelOutcome {
    /** It was pending: withdrawn, it will never be delivered. */
    WITHDRAWN,
    /** No such message yet: the cancel is recorded, and the message is dropped if it arrives within the cancel window. */
    RECORDED,
    /** No such message, and no cancel recorded (not asked to, or the cancel window is 0). */
    NOT_FOUND,
    /** Claimed for delivery: it cannot be cancelled any more. */
    IN_FLIGHT,
    /** Delivered within the dedupe window: too late. */
    ALREADY_DELIVERED,
    /** Cancelled before (within the cancel window): nothing more to do. */
    ALREADY_CANCELLED,
    /** A dead letter: it will not be delivered unless someone replays it. */
    DEAD_LETTER;
}
