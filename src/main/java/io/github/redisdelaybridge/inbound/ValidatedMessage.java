package io.github.redisdelaybridge.inbound;

import io.github.redisdelaybridge.store.ingest.ScheduleRequest;

/** An inbound message after validation: ready to store, a control to apply, or rejected with a reason. */
public sealed interface ValidatedMessage {

    InboundMessage message();

    record Accepted(InboundMessage message, ScheduleRequest request) implements ValidatedMessage {
    }

    /** A control message (x-control): applied to the message it names, never delivered anywhere. */
    record Control(InboundMessage message, ControlRequest request) implements ValidatedMessage {
    }

    record Rejected(InboundMessage message, Rejection rejection) implements ValidatedMessage {
    }
}
