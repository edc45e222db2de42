package io.github.redisdelaybridge.inbound;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.store.ingest.ScheduleRequest;

/** What a control message asks for, about the message it names by id. */
public sealed interface ControlRequest {

    /** The {@code x-control} value of a cancel. */
    String CANCEL = "cancel";
    /** The {@code x-control} value of a reschedule. */
    String RESCHEDULE = "reschedule";
    /** The {@code x-control} value of a replace. */
    String REPLACE = "replace";

    /** The id of the message to control (not the control message's own id). */
    String messageId();

    /** Withdraw the message; if it has not arrived yet, drop it when it does (within the cancel window). */
    record Cancel(String messageId) implements ControlRequest {
    }

    /** Give the pending message a new due time; body, headers and target stay. */
    record Reschedule(String messageId, DueTime dueTime) implements ControlRequest {
    }

    /**
     * Swap the pending message for {@code replacement} (the control message's own target, key, headers, properties, body
     * and due time, validated like a new message's), keeping its id; never stores a message that is not pending.
     */
    record Replace(ScheduleRequest replacement) implements ControlRequest {

        @Override
        public String messageId() {
            return replacement.messageId();
        }
    }
}
