package io.github.redisdelaybridge.inbound;

import io.github.redisdelaybridge.message.DeadLetterReason;

/** Why an inbound message cannot be scheduled: a stable reason code and a human explanation. */
public final class Rejection extends Exception {

    private final DeadLetterReason reason;

    public Rejection(DeadLetterReason reason, String detail) {
        super(detail, null, false, false);
        this.reason = reason;
    }

    public DeadLetterReason reason() {
        return reason;
    }

    public String detail() {
        return getMessage();
    }
}
