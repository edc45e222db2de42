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

    /** The x-control value of a cancel of every pending message of a group. */
    String CANCEL_GROUP = "cancel-group";
    /** The x-control value of a reschedule of every pending message of a group. */
    String RESCHEDULE_GROUP = "reschedule-group";

    /**
     * What the control acts on, {@code id:<message id>} or {@code group:<group>}: controls of the same subject are applied
     * in arrival order.
     */
    String subject();

    /** Withdraw the message; if it has not arrived yet, drop it when it does (within the cancel window). */
    record Cancel(String messageId) implements ControlRequest {
        @Override
        public String subject() {
            return "id:" + messageId;
        }
    }

    /** Give the pending message a new due time; body, headers and target stay. */
    record Reschedule(String messageId, DueTime dueTime) implements ControlRequest {
        @Override
        public String subject() {
            return "id:" + messageId;
        }
    }

    /** Withdraw every pending message of the group; those in flight are reported and left alone. */
    record CancelGroup(String group) implements ControlRequest {
        @Override
        public String subject() {
            return "group:" + group;
        }
    }

    /** Give every pending message of the group one new due time; those in flight are reported and left alone. */
    record RescheduleGroup(String group, DueTime dueTime) implements ControlRequest {
        @Override
        public String subject() {
            return "group:" + group;
        }
    }

    /**
     * Swap the pending message for {@code replacement} (the control message's own target, key, headers, properties, body
     * and due time, validated like a new message's), keeping its id; never stores a message that is not pending.
     */
    record Replace(ScheduleRequest replacement) implements ControlRequest {

        public String messageId() {
            return replacement.messageId();
        }

        @Override
        public String subject() {
            return "id:" + messageId();
        }
    }
}
